# Install Desktop RAG into the project's own virtual environment (.venv) - the Windows counterpart of install.sh.
# Usage (PowerShell):  powershell -ExecutionPolicy Bypass -File scripts\install.ps1 [-Extras dev]
# Never installs into the system Python; re-running is quick while .venv matches pyproject.toml (stamp file).
# Environment: PYTHON=C:\path\to\python.exe picks the interpreter; DESKTOP_RAG_INSTALL_FORCE=1 reinstalls.
param([string]$Extras = "")
$ErrorActionPreference = "Stop"
Set-Location (Split-Path -Parent $PSScriptRoot)

$Venv = ".venv"
$VPy = Join-Path $Venv "Scripts\python.exe"
$Stamp = Join-Path $Venv ".desktop-rag-install"
$Torch = "torch==2.13.0"  # pinned and first; on Windows PyPI's torch is the CPU build
$Hint = "Install Python 3.11 or newer: winget install Python.Python.3.12  (or https://www.python.org/downloads/ ," +
        " with 'Add python.exe to PATH' ticked), then run this script again."

function Invoke-Quiet([string[]]$Cmd, [string[]]$Arguments) {
    # Runs a program, True when it exits 0; stderr is dropped (Windows PowerShell turns it into errors).
    $ErrorActionPreference = "Continue"
    try {
        $rest = @($Cmd | Select-Object -Skip 1) + $Arguments
        & $Cmd[0] @rest 2>$null | Out-Null
        return ($LASTEXITCODE -eq 0)
    } catch { return $false }
}

function Find-Python {
    $candidates = @()
    if ($env:PYTHON) { $candidates += ,@($env:PYTHON) }
    else { $candidates += ,@("py", "-3.13"); $candidates += ,@("py", "-3.12"); $candidates += ,@("py", "-3.11")
           $candidates += ,@("python"); $candidates += ,@("python3") }
    foreach ($c in $candidates) {
        # The Microsoft Store's 'python' alias exits with an error when no Python is installed: skipped here.
        if (Invoke-Quiet $c @("-c", "import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))")) { return ,$c }
    }
    throw "No Python 3.11 or newer (with its venv module) was found. $Hint"
}

function Get-StampHash {
    $text = (Get-Content -Raw pyproject.toml) + "|$Torch|$env:DESKTOP_RAG_INSTALL_NO_DEPS|" + (& $VPy -c "import sys; print(sys.version)")
    $bytes = [System.Text.Encoding]::UTF8.GetBytes($text)
    $sha = [System.Security.Cryptography.SHA256]::Create()
    return ([System.BitConverter]::ToString($sha.ComputeHash($bytes)) -replace "-", "").ToLower()
}

if (-not ((Test-Path $VPy) -and (Invoke-Quiet @($VPy) @("-c", "import sys; sys.exit(sys.version_info < (3, 11))")))) {
    if (Test-Path $Venv) { Write-Host "Replacing $Venv`: its Python no longer runs or is too old."; Remove-Item -Recurse -Force $Venv }
    $py = Find-Python
    Write-Host "Creating $Venv with $($py -join ' ')"
    $rest = @($py | Select-Object -Skip 1) + @("-m", "venv", $Venv)
    & $py[0] @rest
    if ($LASTEXITCODE -ne 0) { throw "Could not create $Venv. $Hint" }
}

$installed = @()
if (Test-Path $Stamp) { $lines = Get-Content $Stamp; if ($lines.Count -gt 1 -and $lines[1]) { $installed = $lines[1] -split "," } }
$wanted = @($Extras -split "," | Where-Object { $_ })
$all = @(($installed + $wanted) | Where-Object { $_ } | Sort-Object -Unique)
$hash = Get-StampHash
$upToDate = (-not $env:DESKTOP_RAG_INSTALL_FORCE) -and (Test-Path $Stamp) -and ((Get-Content $Stamp)[0] -eq $hash) -and
            (@($wanted | Where-Object { $installed -notcontains $_ }).Count -eq 0) -and
            (Invoke-Quiet @($VPy) @("-I", "-c", "import desktop_rag"))
if ($upToDate) {
    Write-Host "Desktop RAG is already installed in $Venv (up to date with pyproject.toml)."
} else {
    $target = "."
    if ($all.Count -gt 0) { $target = ".[" + ($all -join ",") + "]" }
    if ($env:DESKTOP_RAG_INSTALL_NO_DEPS) {
        & $VPy -m pip install --quiet --no-deps -e $target
    } else {
        Write-Host "Installing PyTorch (CPU build) into $Venv ..."
        & $VPy -m pip install --quiet $Torch
        if ($LASTEXITCODE -ne 0) { throw "pip could not install $Torch (see above)." }
        Write-Host "Installing Desktop RAG and its dependencies into $Venv ..."
        & $VPy -m pip install --quiet -e $target
    }
    if ($LASTEXITCODE -ne 0) { throw "pip could not install Desktop RAG (see above)." }
    Set-Content -Path $Stamp -Value @($hash, ($all -join ","))
}
Write-Host "Done. Start the app: scripts\start.ps1   (or .venv\Scripts\python.exe -m desktop_rag)"
