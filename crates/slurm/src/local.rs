//! The one-node cluster of `scripts/slurm-local.sh`, for tests and demos.

use std::path::Path;
use std::process::Command;

/// Start the local cluster with `script` (idempotent: quiet when it is
/// already running) and return the `SLURM_CONF` that reaches it. The error
/// names the script and says how to install Slurm.
pub fn start_local_cluster(script: &Path) -> Result<String, String> {
    let run = |arg: &str| -> Result<String, String> {
        let out = Command::new(script)
            .arg(arg)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !out.status.success() {
            return Err(format!(
                "the local Slurm cluster could not be started (`{} {arg}`): {}{}\n\
                 install Slurm with scripts/install-deps.sh (Debian packages slurm-wlm and munge)",
                script.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    run("start")?;
    let env = run("env")?;
    env.trim()
        .strip_prefix("export SLURM_CONF=")
        .map(str::to_string)
        .ok_or_else(|| format!("unexpected `{} env` output: {env}", script.display()))
}
