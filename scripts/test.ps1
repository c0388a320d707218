# Install with the test extras (into .venv, once), then run the whole test suite offscreen - Windows' test.sh.
# Usage (PowerShell):  powershell -ExecutionPolicy Bypass -File scripts\test.ps1 [pytest arguments]
$ErrorActionPreference = "Stop"
& (Join-Path $PSScriptRoot "install.ps1") -Extras dev
Set-Location (Split-Path -Parent $PSScriptRoot)
$env:QT_QPA_PLATFORM = "offscreen"; $env:HF_HUB_OFFLINE = "1"; $env:TRANSFORMERS_OFFLINE = "1"
& .venv\Scripts\python.exe -m pytest -q -p no:cacheprovider @args
exit $LASTEXITCODE
