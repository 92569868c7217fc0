; OV Studio's Windows installer: makensis over the one-folder PyInstaller build.
;   makensis -DVERSION=0.1.0 installers\windows\ov-studio.nsi
; (.github/workflows/windows.yml builds it on windows-latest; `make nsis-check` runs the same
; script over the Linux build as a stand-in payload, which checks the script, not Windows.)
;
; Per user, no administrator: installs under %LOCALAPPDATA%\Programs\OV Studio, shortcuts in
; the user's Start menu and desktop, uninstaller registered under HKCU. The user's data
; (%LOCALAPPDATA%\OV Studio: models, knowledge, voices) is not touched by the uninstaller.
;
; VC++ runtime: answered by app-local deployment, no redistributable run. PyInstaller collects
; msvcp140*.dll, vcruntime140*.dll and the UCRT DLLs that Python, Qt and OpenVINO link into the
; bundle from the build machine (its dylib include list names them; Microsoft allows
; redistributing them next to the program), and the workflow fails when they are missing.

Unicode true
!ifdef NOCOMPRESS
  SetCompress off  ; the Linux stand-in check: fast, and the output is deleted
!else
  SetCompressor /SOLID lzma
!endif

!define APPNAME "OV Studio"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\OV Studio"
!ifndef VERSION
  !define VERSION "0.1.0"
!endif
!ifndef DIST
  !define DIST "..\..\dist\ov-studio"
!endif
!ifndef EXE
  !define EXE "ov-studio.exe"
!endif
!ifndef OUTFILE
  !define OUTFILE "..\..\dist\ov-studio-${VERSION}-setup.exe"
!endif

Name "${APPNAME}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${APPNAME}"
InstallDirRegKey HKCU "Software\${APPNAME}" "InstallDir"
BrandingText "${APPNAME} ${VERSION}"

!include "MUI2.nsh"
!include "FileFunc.nsh"
!ifdef ICON
  !define MUI_ICON "${ICON}"
  !define MUI_UNICON "${ICON}"
!endif
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${APPNAME}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "OV Studio" SecMain
  SectionIn RO
  SetShellVarContext current
  ; A previous version's files go first: a stale DLL next to new ones breaks the start.
  RMDir /r "$INSTDIR\_internal"
  SetOutPath "$INSTDIR"
  File /r "${DIST}\*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"

  CreateShortcut "$SMPROGRAMS\${APPNAME}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
  CreateShortcut "$DESKTOP\${APPNAME}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0

  WriteRegStr HKCU "Software\${APPNAME}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${APPNAME}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "OV Studio developers"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${EXE}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\${APPNAME}.lnk"
  Delete "$DESKTOP\${APPNAME}.lnk"
  ; Only what the installer put there: the program folder. The user's data stays.
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\Uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "Software\${APPNAME}"
SectionEnd
