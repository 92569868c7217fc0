<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>Choose or drop a photo or a video of a face.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for faces…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No face found in this picture: choose a photo with one clear, front-facing face.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Face</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose face…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose face</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A photo (png, jpg, webp) or a video (mp4, mov, webm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop a face here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Face picture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a face</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No face found in its first frame; frames without one are left as they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 face found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} faces found: click one to make it speak (now: the largest).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} faces found: face {number} will speak.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent videos</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent videos: click one to play it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lip-sync device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the lip-sync model runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the lip-synced video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop making the video (nothing is kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: no video was made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save video as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the video shown to a file of your choice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MP4 video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speech</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none yet: speak a text there, then click “Use in Avatar”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speech file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The face says what a speech file says</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice panel:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speech from the Voice panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The face says the speech last made in the Voice panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A voice saying:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A voice and a text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A stored voice speaks the text below first, then the face says it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose speech file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A wav, flac or mp3 file of speech</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voices made in the Voice panel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type what the face should say…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text to say</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose speech</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No voices yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write subtitles (.srt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write subtitles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put &lt;video&gt;.srt next to each video: the typed text timed sentence by sentence, or a speech file transcribed by Whisper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play or pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play or pause the video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position in the video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot play {name}: {reason}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take this image off the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach images (up to {count}); you can also drop or paste them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vision models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the model manager at the models that read images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images ({patterns})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context used: {used} / {limit} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n older message(s) no longer sent</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>What the model reads of this chat for the next answer (system prompt and history), out of its context window; {answer} tokens are kept for the answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random</source>
        <comment>seed</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max new tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest answer, in tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 = greedy, higher = varied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nucleus sampling mass.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample among the k likeliest; 0 = off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Above 1 avoids loops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A fixed seed repeats the same sampled answer; random varies it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt for new chats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The instructions new conversations with this model start from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget this model&apos;s own settings and use the defaults again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Defaults for every model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This model&apos;s own settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Defaults (this model has no settings of its own yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask anything…  (Enter to send, Shift+Enter for a new line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your message to the model: Enter sends, Shift+Enter starts a new line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There are no collections yet: add documents in the Knowledge panel first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a collection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use knowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer from the passages of a knowledge collection, with numbered sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge collection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The collection answers are grounded in; choosing one turns knowledge on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading collections…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No collections yet — add documents in Knowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{name}” was deleted: this chat no longer uses knowledge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop a .gguf file or an OpenVINO model folder here to open it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop one model at a time: a .gguf file or an OpenVINO model folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only a model on this computer can be opened; download it first (File → Models…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model is still loading; send again when it is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait for the answer to finish (or stop it) before opening another model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max new tokens, temperature, top-p, top-k, seed and the system prompt, per model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The images are still being read; send again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pasted image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This answer is kept only in this window, not on disk yet — nothing is lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the answer (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the message (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer copied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or edit the instructions this conversation starts from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instructions for the assistant in this conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <comment>no system prompt</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use CPU instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong ({what}). It was written to the log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat</source>
        <extracomment>The panels in the navigation, in order. A new panel is one more line here.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Avatar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now choose a face, then Generate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Panels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch between Chat, Knowledge, Voice and Avatar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{panel} ({keys})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A .gguf file, or openvino_model.xml in a model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model &amp;folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Transcribe…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An audio file to text and subtitles (Whisper)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge &amp;database…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Server settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Regenerate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Performance overlay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About OV Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded {name} in {seconds} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge now lives in a shared server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge now lives in the built-in database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OV Studio could not start again: close it and start it yourself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the technical details (for a bug report)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide this message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is no longer at {folder} — re-index the collection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No application on this computer opens {name}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TPOT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens/s (last)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens/s (live)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU · this app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU · whole system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory · this app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory · whole system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lip-sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lip-sync stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spoken answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spoken answer stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last TTFT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LLM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lip-sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paste</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>encode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Performance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the performance overlay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the performance overlay (F12)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RTF {rtf} · first {first} s · {device}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{fps} frames/s · {device}</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n active</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>audio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time spent loading so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel loading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop waiting for this model; keep the current one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow &amp;system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new language is used from the next start of OV Studio.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No audio device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No audio device: recording is unavailable. A clip from a file works the same way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No audio device: speech is made but not played; Save as wav… keeps it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microphone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Microphone to record from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker to play on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How loud the microphone hears you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input level {level} dBFS (peak {peak})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a clip or record one first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{seconds} s of speech · peak {peak} dBFS · {snr} dB above the background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of the new voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference clip from a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A clip of 5–30 s of one person speaking: wav, flac, ogg, mp3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trim to {seconds} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trim the clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the first {seconds} s of the clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the recording…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first {seconds} s of {source}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trimming…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{summary} — from {source}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{seconds} s from {source}:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing the voice of {source}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voice “{name}” created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute the voice from the clip (it needs a name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick or record a clip without problems first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record 5–{seconds} s of someone speaking (after a 3-2-1 countdown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop recording</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop recording now (the clip so far is kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recording in {count}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recorded {seconds} s (the 30 s limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recorded {seconds} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was recorded: the microphone sent no sound.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No audio device: answers cannot be played on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop speaking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop reading the answer aloud</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type what the voice should say…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text to speak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speak the text in the chosen voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the speech now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as wav…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as wav</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the last speech as a wav file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use in Avatar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hand the last speech to the Avatar panel, for a face to say it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress, problems and results of the controls above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Voices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored voices; F2 renames the selected one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a column to sort the voices by it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play the clip the selected voice was made from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No audio device: clips cannot be played on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename the selected voice (F2, or double-click it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete voice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected voice and its reference clip</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
