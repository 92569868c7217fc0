"""Grounded-answer benchmark: writes benchmarks/results/grounding.json.

1. ``scores``: where the relevance floor belongs. Real documents (Python's own pydoc pages of a
   few standard modules, and this repository's architecture notes) are ingested into a
   collection with the real all-MiniLM-L6-v2 fixture and the app's chunking; questions whose
   answer is in them, and questions the documents cannot answer, are searched as the chat
   searches them (hybrid, the app's :class:`KnowledgeService`). Each hit's relevance (the
   cosine similarity a person is shown as "% match") is labelled relevant when the passage
   holds one of the question's answer words (``copytree`` for copying a folder tree), and
   every floor from 0.10 to 0.60 is scored: relevant passages kept, irrelevant ones sent, and
   unanswerable questions that still get a passage.
2. ``citations``: how often the real SmolLM2-135M (GGUF fixture) cites its sources with
   ``[n]`` at the app's default settings, answering a fixed set of questions over the same
   collection through :meth:`ChatService.ask` (the chat window's path), a few seeds each.

Timing is not measured (the figures are shares), so a busy machine only makes it slower.
Run: ``.venv/bin/python benchmarks/bench_grounding.py [scores|citations|all] [--label L]``.
"""

from __future__ import annotations

import argparse
import logging
import os
import pydoc
import re
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "grounding.json"
log = logging.getLogger("bench_grounding")

MODULES = ("shutil", "json", "csv", "pathlib", "datetime")
"""Standard modules whose pydoc pages make the document set (real reference text)."""

ANSWERABLE: dict[str, tuple[str, ...]] = {
    "How do I copy a whole directory tree?": ("copytree",),
    "How can I delete a folder and everything in it?": ("rmtree",),
    "How do I move a file to another folder?": ("move(src",),
    "How do I read JSON from a file?": ("load(fp",),
    "How do I turn a Python dictionary into a JSON string?": ("dumps(obj",),
    "How do I read the rows of a CSV file?": ("reader(", "dictreader"),
    "How do I list the files in a directory with pathlib?": ("iterdir", "glob("),
    "How do I get today's date?": ("today(",),
    "Which database does OV Studio keep its knowledge in?": ("pgvector", "postgresql"),
    "How does the chat panel run the model without blocking the window?": ("worker",),
}
"""Questions the documents answer, and words a passage answering them holds (lower case)."""

UNANSWERABLE = (
    "What is the capital of France?",
    "How long should sourdough bread rise?",
    "Who won the football world cup in 2014?",
    "Write a short poem about the sea.",
    "What is a good name for a cat?",
    "How do I change a flat tyre on a bicycle?",
)
"""Questions nothing in the documents answers: every passage found for them is irrelevant."""

DEPTH = 20
"""Hits looked at per question for the score distributions (the chat sends at most 5)."""
FLOORS = [round(0.10 + 0.05 * step, 2) for step in range(11)]
SEEDS = (1,)
"""One sampled answer per question: on the busy 2-core machine an answer takes a minute."""
CITATION = re.compile(r"\[(\d{1,2})\]")


def write_documents(folder: Path) -> list[Path]:
    """The pydoc pages of :data:`MODULES` as text files, and docs/architecture.md."""
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for name in MODULES:
        text = pydoc.render_doc(name, renderer=pydoc.plaintext)
        path = folder / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        files.append(path)
    architecture = folder / "architecture.md"
    architecture.write_text((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    files.append(architecture)
    return files


def open_context(home: Path, embedder: Path) -> Any:
    """An app context in ``home`` (its own embedded database) embedding with ``embedder``."""
    os.environ["OV_STUDIO_HOME"] = str(home)
    from app.context import AppContext
    from app.core.devices import DeviceInfo
    from app.core.model_tasks import ModelTask

    context = AppContext.create(None, [DeviceInfo("CPU", "CPU")])
    context.settings.models = context.settings.models.with_folder(ModelTask.EMBEDDING, embedder)
    return context


def labelled_hits(context: Any, question: str, words: tuple[str, ...]) -> list[dict[str, Any]]:
    hits = context.knowledge.search("Docs", question, DEPTH)
    return [
        {
            "rank": rank,
            "relevance": round(hit.relevance, 4),
            "relevant": any(word in hit.text.lower() for word in words),
            "file": Path(hit.path).name,
        }
        for rank, hit in enumerate(hits, 1)
    ]


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(int(share * len(ordered)), len(ordered) - 1)], 3)

    return {
        "n": len(values),
        "min": round(ordered[0], 3),
        "p10": at(0.10),
        "median": round(statistics.median(ordered), 3),
        "p90": at(0.90),
        "max": round(ordered[-1], 3),
    }


def measure_scores(context: Any) -> dict[str, Any]:
    answerable = {q: labelled_hits(context, q, words) for q, words in ANSWERABLE.items()}
    unanswerable = {q: labelled_hits(context, q, ("\0",)) for q in UNANSWERABLE}
    relevant = [h["relevance"] for hits in answerable.values() for h in hits if h["relevant"]]
    irrelevant = [h["relevance"] for hits in answerable.values() for h in hits if not h["relevant"]]
    off_topic = [h["relevance"] for hits in unanswerable.values() for h in hits]
    sent = 5  # PASSAGES_PER_ANSWER: what the chat would send without a floor
    floors = []
    for floor in FLOORS:
        top = [h for hits in answerable.values() for h in hits[:sent]]
        kept_relevant = sum(h["relevant"] and h["relevance"] >= floor for h in top)
        all_relevant = sum(h["relevant"] for h in top)
        sent_irrelevant = sum(not h["relevant"] and h["relevance"] >= floor for h in top)
        all_irrelevant = sum(not h["relevant"] for h in top)
        answered = sum(
            any(h["relevant"] and h["relevance"] >= floor for h in hits[:sent])
            for hits in answerable.values()
        )
        grounded_off_topic = sum(
            any(h["relevance"] >= floor for h in hits[:sent]) for hits in unanswerable.values()
        )
        floors.append(
            {
                "floor": floor,
                "relevant_kept": f"{kept_relevant}/{all_relevant}",
                "irrelevant_sent": f"{sent_irrelevant}/{all_irrelevant}",
                "answerable_with_a_relevant_passage": f"{answered}/{len(answerable)}",
                "unanswerable_still_given_passages": f"{grounded_off_topic}/{len(unanswerable)}",
            }
        )
    return {
        "documents": [*(f"pydoc {m}" for m in MODULES), "docs/architecture.md"],
        "relevance": {
            "relevant": summary(relevant),
            "irrelevant_for_answerable_questions": summary(irrelevant),
            "unanswerable_questions": summary(off_topic),
            "best_per_unanswerable_question": {
                q: hits[0]["relevance"] for q, hits in unanswerable.items() if hits
            },
            "best_relevant_per_answerable_question": {
                q: max((h["relevance"] for h in hits if h["relevant"]), default=None)
                for q, hits in answerable.items()
            },
        },
        "floors_over_the_top_5": floors,
    }


def chat_tokens_per_chunk(context: Any) -> dict[str, float]:
    """How many of the chat model's tokens a passage takes, per token of the chunk size (the
    chunker counts with the embedder's tokenizer)."""
    count = context.chat.pipeline.count_tokens
    chunk = context.settings.chunk_tokens
    ratios = [
        count(hit.text.strip()) / chunk
        for question in [*ANSWERABLE, *UNANSWERABLE]
        for hit in context.knowledge.search("Docs", question, DEPTH)
    ]
    return summary(ratios)


def measure_citations(context: Any, model: Path) -> dict[str, Any]:
    from pipelines.core import CancelToken

    context.chat.load_model(model, "CPU")
    passage_sizes = chat_tokens_per_chunk(context)
    defaults = context.chat.generation_for(context.settings)
    system = context.chat.chat_defaults(context.settings).system_prompt
    answers = []
    for question in ANSWERABLE:
        for seed in SEEDS:
            conversation = context.chat.new_conversation(system, transient=True)
            context.chat.set_knowledge(conversation.id, "Docs")
            answer = context.chat.ask(
                conversation.id,
                question,
                replace(defaults, seed=seed),
                CancelToken(),
                lambda _: None,
            )
            given = len(answer.message.sources)
            markers = [int(n) for n in CITATION.findall(answer.message.content)]
            valid = [n for n in markers if 1 <= n <= given]
            answers.append(
                {
                    "question": question,
                    "seed": seed,
                    "sources_given": given,
                    "markers": markers,
                    "cites": bool(valid),
                    "answer": answer.message.content[:400],
                }
            )
            tokens = int(answer.message.metrics.get("output_tokens", 0))
            answers[-1]["output_tokens"] = tokens
            log.info(
                "%s seed %d: %d sources, %d tokens, markers %s",
                question,
                seed,
                given,
                tokens,
                markers,
            )
    grounded = [a for a in answers if a["sources_given"]]
    citing = sum(a["cites"] for a in grounded)
    return {
        "passage_chat_tokens_per_chunk_token": passage_sizes,
        "model": model.name,
        "settings": {
            "temperature": defaults.temperature,
            "top_p": defaults.top_p,
            "top_k": defaults.top_k,
            "max_new_tokens": defaults.max_new_tokens,
            "system_prompt": system,
            "seeds": list(SEEDS),
        },
        "answers_with_sources": len(grounded),
        "answers_citing_a_given_source": citing,
        "citing_share": round(citing / len(grounded), 3) if grounded else None,
        "answers_with_any_marker": sum(bool(a["markers"]) for a in answers),
        "answers": answers,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("scores", "citations", "all"), nargs="?", default="all")
    parser.add_argument("--label", default="", help="key the results are kept under")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    builder = load_builder()
    embedder = builder.fixtures_root() / "embedding"
    model = builder.fixtures_root() / "llm-real" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    results: dict[str, Any] = {}
    if RESULTS.exists():
        import json

        results = json.loads(RESULTS.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="bench-grounding-") as scratch:
        context = open_context(Path(scratch) / "home", embedder)
        try:
            files = write_documents(Path(scratch) / "docs")
            report = context.knowledge.ingest("Docs", files)
            log.info("ingested %d chunks", report.chunks)
            suffix = f"_{args.label}" if args.label else ""
            if args.part in ("scores", "all"):
                results[f"scores{suffix}"] = measure_scores(context)
            if args.part in ("citations", "all"):
                results[f"citations{suffix}"] = measure_citations(context, model)
        finally:
            context.close()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
