<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name></name>
    <message numerus="yes">
        <source>%n older message(s) no longer sent</source>
        <translation>
            <numerusform>%n older message no longer sent</numerusform>
            <numerusform>%n older messages no longer sent</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n active</source>
        <translation>
            <numerusform>%n active</numerusform>
            <numerusform>%n active</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chat(s) found</source>
        <translation>
            <numerusform>%n chat found</numerusform>
            <numerusform>%n chats found</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n passage(s) from “{collection}” — best first</source>
        <translation>
            <numerusform>%n passage from “{collection}” — best first</numerusform>
            <numerusform>%n passages from “{collection}” — best first</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s)</source>
        <translation>
            <numerusform>%n frame</numerusform>
            <numerusform>%n frames</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n frame(s) without a face left as they were</source>
        <translation>
            <numerusform>%n frame without a face left as it was</numerusform>
            <numerusform>%n frames without a face left as they were</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) listed on {when}.</source>
        <translation>
            <numerusform>%n tool listed on {when}.</numerusform>
            <numerusform>%n tools listed on {when}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n tool</numerusform>
            <numerusform>%n tools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) listed.</source>
        <translation>
            <numerusform>%n tool listed.</numerusform>
            <numerusform>%n tools listed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) the model may call in this chat; choose them here</source>
        <translation>
            <numerusform>%n tool the model may call in this chat; choose them here</numerusform>
            <numerusform>%n tools the model may call in this chat; choose them here</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln document(s)</source>
        <translation>
            <numerusform>%Ln document</numerusform>
            <numerusform>%Ln documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln chunk</numerusform>
            <numerusform>%Ln chunks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln file(s)</source>
        <translation>
            <numerusform>%Ln file</numerusform>
            <numerusform>%Ln files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln item(s)</source>
        <translation>
            <numerusform>%Ln item</numerusform>
            <numerusform>%Ln items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln byte(s)</source>
        <translation>
            <numerusform>%Ln byte</numerusform>
            <numerusform>%Ln bytes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n below the relevance floor left out</source>
        <comment>knowledge passages</comment>
        <translation>
            <numerusform>%n below the relevance floor left out</numerusform>
            <numerusform>%n below the relevance floor left out</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No passage matched this question well enough (%n below the relevance floor left out): this answer is not from your documents.</source>
        <translation>
            <numerusform>No passage matched this question well enough (%n below the relevance floor left out): this answer is not from your documents.</numerusform>
            <numerusform>No passage matched this question well enough (%n below the relevance floor left out): this answer is not from your documents.</numerusform>
        </translation>
    </message>
</context>
</TS>
