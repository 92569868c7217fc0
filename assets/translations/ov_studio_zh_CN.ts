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
        <source>Edit message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the question, then send it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the edited question; the answers after it are replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the question as it was</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the previous version of this answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the next version of this answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the whole message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit this question and send it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this question and its answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read this answer aloud</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a new answer; this one is kept as a version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this answer (only the version shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version {shown} of {count}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attached image</source>
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
        <source>Conversations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your chats; F2 renames, Delete deletes, the context menu pins and exports</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin to top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as</source>
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
        <source>OV Studio keeps running; if something looks wrong, save your work and restart it. Nothing was sent anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong ({error}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OV Studio — unexpected error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The details were written to {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the error&apos;s technical details on the clipboard, to share if you choose.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The details are on the clipboard.</source>
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
        <source>a Hugging Face checkpoint folder, or a hub id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Torch checkpoints ({patterns})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT4 weights, grouped: the smallest and fastest for CPU and GPU chat models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT8 weights: near-lossless, half the size of FP16.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP16 weights: no compression beyond half precision.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT4 symmetric, channel-wise: the layout Intel NPUs run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT8, checked against the float model while it is converted: smaller and faster on CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No compression: the float model as converted (the largest, the reference for quality).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat (LLM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vision chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speech to text (Whisper)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reranker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text to speech (SpeechT5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker encoder (x-vector)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lip-sync (Wav2Lip)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speech to text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text to speech</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speaker encoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lip-sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Face detector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a SpeechT5 checkpoint folder, or a hub id such as microsoft/speecht5_tts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an x-vector checkpoint folder or file (embedding_model.ckpt), or speechbrain/spkrec-xvect-voxceleb</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a Wav2Lip checkpoint file you obtained (wav2lip_gan.pth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detect from config.json</source>
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
        <source>Chat models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models</source>
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
        <source>Models OV Studio can use. Double-click one to use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the selected model where it is used (chat, Knowledge, Voice, Avatar)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Register a GGUF file or an OpenVINO model folder you already have</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the selected model&apos;s folder in the file manager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected model from the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>App copies use {size}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Avatar panel picks its face detector itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The bundled embedding model stays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take it off the list; the folder stays on disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} cannot be used here. {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an OpenVINO model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a GGUF model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take {name} off the list? Its folder {folder} stays on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the damaged entry {name} from the model list? No file is deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {name} and its {size} of files?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget {name}? Its folder {folder} stays on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove model</source>
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
        <source>New endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The remote servers chat can run on; choose one to edit it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;dd</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a remote server to the list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected server (its key goes when you save).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the chat&apos;s device list calls this server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{ovms} (OVMS) or {other}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s OpenAI-compatible address, e.g. {example}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key the server expects, if any; kept in the system keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the server for its models; the list below fills from its answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop waiting for the server&apos;s answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test the connection to list the server&apos;s models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s model that chat uses.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} {number}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to {address}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The test failed: {error}</source>
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
        <source>Collections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Docs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chunks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New collection name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create an empty collection with this name (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename the selected collection (F2, or double-click it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected collection from the knowledge base (your files stay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your collections with their documents and chunks; F2 renames one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Collection columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a column to sort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a name, then press Enter or click New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedded with {model} ({dim}-d)</source>
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
    <message>
        <source>Everything runs on this computer: no conversation, document or voice leaves it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About OV Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local multimodal AI on OpenVINO. {privacy}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open log folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open log folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the log folder in the file manager.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML page…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (can be imported)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML page (*.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat export (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this code block to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code from the answer; select text to copy part of it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code copied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search chats</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find chats by title or message text; Esc clears</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all chats again (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find chats by title or message text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this chat or import one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No chat contains “{query}”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n chat(s) found</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The search failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export this chat as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import chat…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported to {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported “{title}”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sources:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} tokens</source>
        <comment>generated in an answer</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT {ms} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages above this line are no longer sent to the model: the context is full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The messages of this chat, oldest first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select text to copy part of the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring the deleted chat back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted “{title}”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the download; what arrived is kept for later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model file or folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model file or folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A .gguf file, or an OpenVINO model folder (Ctrl+O)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole catalog: chat, vision, speech (File → Models…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome to OV Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a chat model to start. It is downloaded once and then runs on this computer: your conversations never leave it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Already have a model?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models are stored in {folder}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download {name} ({size}) and open it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <comment>verb</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed in {folder}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another model is downloading; wait for it to finish or stop it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to download {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed {name}; opening it…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped; nothing was installed. What arrived is kept, so Download resumes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the model manager&apos;s Convert view with this checkpoint filled in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is a Hugging Face checkpoint, not an OpenVINO model yet: convert it once to chat with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Built-in database on this computer (no set-up)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Shared PostgreSQL server with pgvector (a team&apos;s knowledge)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built-in database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep knowledge in a database file on this computer; nothing to set up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared PostgreSQL server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep knowledge on a PostgreSQL server with pgvector that a team shares.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s address, e.g. {example}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept in the system keyring, not in the settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database password; it is kept in the system keyring, not in the settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to the server and say which PostgreSQL and pgvector it runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connection:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the server&apos;s connection string first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the server&apos;s connection string.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device for the {pipeline} model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use these settings and close.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save these settings and close.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close without changing anything.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The knowledge database starts when this panel is first opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try to start (or reach) the knowledge database again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the knowledge database…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The knowledge database is not available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add every supported file in a folder and its subfolders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read every document again: changed files are updated, missing ones removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected documents (your files stay) — Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose documents to add to the selected collection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents in “{name}”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adding {what} to “{target}”: reading the files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-indexing “{name}”: checking its documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove {which} from “{name}”? Your files are not touched; adding them again indexes them again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is as it was when it was indexed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file changed since it was indexed: Re-index reads it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is no longer there: Re-index removes it from the collection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The documents of the collection; Enter opens one, Delete removes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop setting up the model (nothing is kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model manager, where the conversion tools are installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n document(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>{done} / {total} files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{rate} chunks/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA {time}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current: {file}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{added} added · {updated} updated · {skipped} skipped · {removed} removed · {failed} failed · {chunks} in {seconds} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped. {documents} stored whole in “{collection}”; the one being read was not stored. Run it again to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done — “{collection}”: {counts}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score {score}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{percent}% match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>page {page}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The % says how close the passage is in meaning to your search: the similarity of the two (100% = the same meaning), or the reranker&apos;s confidence when a reranker model is set. Results are ordered by meaning and matching words together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop after the document being read (it is not stored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files that could not be added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each file that could not be added and why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping after the document being read; it will not be stored…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embeds documents and questions; each collection records its model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bundled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back to the bundled all-MiniLM-L6-v2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert the bundled all-MiniLM-L6-v2 to OpenVINO now (once, about a minute)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device for the embedding (and reranking) model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search this collection by meaning or words…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many passages to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click or press Enter to open the document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search this collection by meaning or words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find the passages that best match the query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best first; double-click or press Enter to open the document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the search query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n passage(s) from “{collection}” — best first</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing in “{collection}” matches this search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get it in Models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the model manager where this model is downloaded or converted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model — get one in File → Models…, or open one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat models installed in OV Studio, and recent models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remote…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remote endpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set up OpenAI-compatible servers (OVMS, vLLM, another OV Studio) chat can run on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a .gguf file, or an OpenVINO model folder (Ctrl+O); the arrow offers a folder dialog. You can also drop a file or folder on the chat.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file (.gguf)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenVINO model folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No chat models installed yet — open one, or add it in File → Models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a chat model: a .gguf file, or openvino_model.xml in a model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open an OpenVINO chat model folder (or a folder holding one .gguf file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model load cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count}-token context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loaded in {seconds} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Converting {name} for OpenVINO (first time only)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A checkpoint folder or file, or a hub id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose checkpoint folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a checkpoint folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose checkpoint file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a checkpoint file (.pth, .pt, .ckpt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the model does (detected from config.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the weights are compressed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT4: weights per scale (default: 128)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT4: the share of layers in INT4 (the rest INT8)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Symmetric</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT4: symmetric quantization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocoder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The vocoder turns SpeechT5&apos;s spectrograms into sound: a checkpoint folder or a hub id (default {vocoder})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose vocoder folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a vocoder checkpoint folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default: &lt;checkpoint&gt;-&lt;weights&gt;-ov</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The installed model&apos;s id (letters, digits, . _ -)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert the checkpoint and install it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel conversion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop; the partial output is removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversion progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>INT4 options:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocoder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install as:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a checkpoint file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a checkpoint folder or file, or type a hub id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed {name} ({task}, {precision}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Licence: {note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped; the partial output was removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{time} left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model manager views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installed, Catalog, Convert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show catalog models for this task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show catalog models that run on it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model catalog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models you can download or convert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop; what arrived is kept for later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(converted in the app)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Converted with the conversion tools (Convert view)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting for {source}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped. What arrived is kept: Download resumes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Licence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bundled with OV Studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opened from folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set up yet (Use sets it up)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>broken</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{status}: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What each column shows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One row per model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scroll sideways</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows the other columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scroll</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows the other rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Converting a checkpoint needs the conversion tools (PyTorch, Transformers, Optimum Intel and NNCF), which are not installed yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install conversion tools (≈{download} download, {disk} on disk)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversion tools are installed in this app&apos;s data folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversion tools were installed with the versions of an earlier release; update them so conversions use the versions this one was tested with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update conversion tools (≈{download} download)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped; nothing was installed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversion tools are installed: Convert is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install conversion tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download PyTorch, Transformers, Optimum Intel and NNCF into the app&apos;s folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove conversion tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the conversion tools from the app&apos;s data folder to free the space.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel install</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop installing; nothing is left behind.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much has been downloaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installing the conversion tools failed unexpectedly; details are in the log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is now used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anyone on your network who has the token can use your models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The port other programs connect to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow other machines on the &amp;network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow other machines on the network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listen on every address of this machine, not only on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only programs on this computer can reach the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed web origins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Web pages allowed to call the server, one origin per line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model that answers requests which name none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start the server when OV Studio opens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the server when OV Studio opens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn the server on each time the app starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key clients send as &apos;Authorization: Bearer&apos;; hidden until Show.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the token on the clipboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make a new token; clients using the old one are refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes apply the next time the server starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One per line, e.g. {example}. Empty: web pages cannot call it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed web &amp;origins:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model when a request names none:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save and &amp;restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save and restart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save these settings and restart the running server with them now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chat&apos;s model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New token made: clients need it from now on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;{origin}&apos; is not a web origin; write it as http://host:port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serve your models to other programs (OpenAI- and Ollama-compatible API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where other programs reach the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server menu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the address or the token; server settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy &amp;address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy &amp;token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server &amp;settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address copied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token copied: clients send it as &apos;Authorization: Bearer …&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server is on at {address}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server could not start; see the log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server is off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Serving at {address}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
