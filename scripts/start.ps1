# Install (into .venv, once), then start the desktop app - the Windows counterpart of start.sh.
# Usage (PowerShell):  powershell -ExecutionPolicy Bypass -File scripts\start.ps1 [desktop-rag arguments]
$ErrorActionPreference = "Stop"
& (Join-Path $PSScriptRoot "install.ps1")
Set-Location (Split-Path -Parent $PSScriptRoot)
& .venv\Scripts\python.exe -m desktop_rag @args
exit $LASTEXITCODE
