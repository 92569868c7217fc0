"""Search quality with the real all-MiniLM-L6-v2: paraphrased questions find their source (the
benchmarks read this file's FACTS; it imports nothing of the tests)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths

pytestmark = pytest.mark.integration

# (file, passage, a question that paraphrases it without copying its key words)
FACTS = [
    (
        "volcano",
        "Mount Etna on Sicily erupts several times a year and is Europe's most active volcano.",
        "Which European mountain spews lava most often?",
    ),
    (
        "coffee",
        "Espresso is brewed by forcing hot water through finely ground coffee under pressure.",
        "How is a strong Italian coffee shot made?",
    ),
    (
        "whales",
        "Blue whales are the largest animals ever known, reaching thirty metres in length.",
        "What is the biggest creature that has ever lived?",
    ),
    (
        "tax",
        "The quarterly VAT return must be filed within one month after the quarter ends.",
        "When is the deadline for the sales tax declaration?",
    ),
    (
        "backup",
        "Nightly backups copy the database to an off-site server at two in the morning.",
        "At what time are data copies sent to the remote machine?",
    ),
    (
        "vaccine",
        "The booster dose is recommended six months after the second injection.",
        "How long should I wait for the third shot?",
    ),
    (
        "chess",
        "Castling moves the king two squares towards a rook, which jumps over it.",
        "Which move lets the monarch and a tower swap sides?",
    ),
    (
        "bread",
        "Sourdough rises thanks to wild yeast and lactic acid bacteria in the starter.",
        "What makes naturally leavened loaves go up?",
    ),
    (
        "battery",
        "Lithium-ion cells degrade faster when kept fully charged in hot places.",
        "Why does my phone's power pack wear out in the heat?",
    ),
    (
        "rainbow",
        "A rainbow appears when sunlight is refracted and reflected inside raindrops.",
        "Why do colourful arcs show up in the sky after a shower?",
    ),
    (
        "parking",
        "Employees may park in the north garage after registering their licence plate.",
        "Where can staff leave their cars?",
    ),
    (
        "password",
        "Passwords must be changed every ninety days and contain at least twelve characters.",
        "How often do I need to update my login secret?",
    ),
    (
        "moon",
        "The Moon's gravity causes the ocean tides that rise and fall twice a day.",
        "What pulls the sea up and down along the coast?",
    ),
    (
        "bees",
        "Honeybees communicate the location of flowers through a waggle dance.",
        "How do hive insects tell each other where the nectar is?",
    ),
    (
        "refund",
        "Customers can return unused items within thirty days for a full refund.",
        "Can I get my money back if I send a purchase back?",
    ),
    (
        "printer",
        "If the printer jams, open the rear tray and gently pull out the stuck paper.",
        "What should I do when sheets get stuck in the office copier?",
    ),
    (
        "sleep",
        "Adults need seven to nine hours of sleep per night to stay healthy.",
        "How much rest should a grown-up get each night?",
    ),
    (
        "bridge",
        "The Golden Gate Bridge opened in 1937 and spans the strait at San Francisco.",
        "When was the famous red suspension crossing in California completed?",
    ),
    (
        "python",
        "List comprehensions build a new list by applying an expression to each item.",
        "How do I create a collection from a loop in one line of code?",
    ),
    (
        "holiday",
        "Annual leave requests must be approved by a manager two weeks in advance.",
        "How early do I have to ask my boss for vacation days?",
    ),
]


@pytest.fixture
def knowledge(
    app_home: AppPaths, fresh_db: str, embedding_model_dir: Path, tmp_path: Path
) -> Iterator[AppContext]:
    ctx = AppContext.create(app_home, [DeviceInfo("CPU", "CPU")])
    ctx.settings.database_url = fresh_db
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.EMBEDDING, embedding_model_dir)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, passage, _ in FACTS:
        (corpus / f"{name}.txt").write_text(passage, encoding="utf-8")
    report = ctx.knowledge.ingest("Quality", [corpus])
    assert len(report.added) == len(FACTS)
    yield ctx
    ctx.close()


def test_recall_at_5_on_paraphrased_questions(knowledge: AppContext) -> None:
    found = 0
    misses = []
    for name, _, question in FACTS:
        hits = knowledge.knowledge.search("Quality", question, k=5)
        if any(Path(hit.path).stem == name for hit in hits):
            found += 1
        else:
            misses.append(question)
    recall = found / len(FACTS)
    assert recall >= 0.9, f"recall@5 {recall:.2f}; missed: {misses}"


def test_top_hit_is_usually_right(knowledge: AppContext) -> None:
    top = sum(
        Path(knowledge.knowledge.search("Quality", question, k=1)[0].path).stem == name
        for name, _, question in FACTS
    )
    assert top / len(FACTS) >= 0.75
