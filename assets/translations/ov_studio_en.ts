<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
    <context>
        <name />
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
            <source>%n document(s)</source>
            <translation>
                <numerusform>%n document</numerusform>
                <numerusform>%n documents</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n chunk(s)</source>
            <translation>
                <numerusform>%n chunk</numerusform>
                <numerusform>%n chunks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n file(s)</source>
            <translation>
                <numerusform>%n file</numerusform>
                <numerusform>%n files</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n item(s)</source>
            <translation>
                <numerusform>%n item</numerusform>
                <numerusform>%n items</numerusform>
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
    </context>
</TS>
