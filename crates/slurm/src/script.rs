//! The sbatch scripts, as text. Everything a job needs is in its script
//! (options as `#SBATCH` lines, absolute paths), so a user can read it,
//! and resubmitting a failed task is `sbatch --array=<task> <script>`.

use crate::{ArrayJob, Layout};
use std::path::Path;

/// `s` as one word for a POSIX shell.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn path_word(p: &Path) -> String {
    shell_quote(&p.to_string_lossy())
}

/// `--output` patterns give `%` a meaning; a literal one is `%%`.
fn output_pattern(p: &Path) -> String {
    p.to_string_lossy().replace('%', "%%")
}

/// An `#SBATCH` option value: sbatch splits directives at whitespace unless
/// the value is double-quoted (paths with `"` or newlines are refused earlier).
fn directive_value(v: &str) -> String {
    if v.chars().any(char::is_whitespace) {
        format!("\"{v}\"")
    } else {
        v.to_string()
    }
}

fn header(out: &mut String, job_name: &str, output: &str, options: &[String]) {
    out.push_str("#!/bin/bash\n");
    out.push_str(&format!("#SBATCH --job-name={job_name}\n"));
    out.push_str(&format!("#SBATCH --output={}\n", directive_value(output)));
    for o in options {
        out.push_str(&format!("#SBATCH {o}\n"));
    }
}

/// The lines that record the exit status where `polyeval slurm status`
/// finds it after Slurm has forgotten the job.
fn record_status(out: &mut String, marker_prefix: &Path, job_vars: &str) {
    let prefix = path_word(marker_prefix);
    out.push_str("status=$?\n");
    out.push_str("# For `polyeval slurm status`, which outlives Slurm's memory of the job.\n");
    out.push_str(&format!(
        "printf '%s\\n' \"$status\" > {prefix}\"{job_vars}\".exit.tmp && mv -f {prefix}\"{job_vars}\".exit.tmp {prefix}\"{job_vars}\".exit\n"
    ));
    out.push_str("exit \"$status\"\n");
}

/// The array job script: task `$SLURM_ARRAY_TASK_ID` runs shard
/// `$SLURM_ARRAY_TASK_ID/N` of the job's command.
pub fn array_script(job: &ArrayJob, layout: &Layout) -> String {
    let n = job.shards;
    let mut out = String::new();
    header(
        &mut out,
        &format!("polyeval-{}", job.name),
        &format!("{}-%A_%a.log", output_pattern(&layout.prefix())),
        &job.sbatch.task_options(),
    );
    out.push_str(&format!(
        "# Written by polyeval: shard $SLURM_ARRAY_TASK_ID of {n} of `polyeval {}` on {}.\n\
         # Submitted as `sbatch --array=0-{} <this file>`; a failed task alone: `sbatch --array=<task> <this file>`.\n",
        job.name,
        job.run_dir.display(),
        n - 1
    ));
    out.push_str("set -u\n");
    out.push_str(&format!(
        "echo \"polyeval {} shard ${{SLURM_ARRAY_TASK_ID}}/{n} (job ${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}) on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)\"\n",
        job.name
    ));
    let mut command = vec![path_word(&job.polyeval)];
    command.extend(job.args.iter().map(|a| shell_quote(a)));
    command.push("--shard".into());
    command.push(format!("\"${{SLURM_ARRAY_TASK_ID}}/{n}\""));
    if let Some(flag) = &job.jobs_flag {
        command.push(shell_quote(flag));
        command.push("\"${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-1}}\"".into());
    }
    out.push_str(&command.join(" "));
    out.push('\n');
    record_status(
        &mut out,
        &layout.prefix_with("-"),
        "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}",
    );
    out
}

/// The merge job script: `polyeval merge RUN` (or the job's merge command).
pub fn merge_script(job: &ArrayJob, layout: &Layout) -> String {
    let mut out = String::new();
    header(
        &mut out,
        &format!("polyeval-{}-merge", job.name),
        &format!("{}-%j.log", output_pattern(&layout.merge_prefix())),
        &job.sbatch.merge_options(),
    );
    out.push_str(&format!(
        "# Written by polyeval: merges the shards of `polyeval {}` into {} once every array task succeeded.\n",
        job.name,
        job.run_dir.display()
    ));
    out.push_str("set -u\n");
    out.push_str(&format!(
        "echo \"polyeval {} merge (job ${{SLURM_JOB_ID}}) on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)\"\n",
        job.name
    ));
    let mut command = vec![path_word(&job.polyeval)];
    command.extend(job.merge_args.iter().map(|a| shell_quote(a)));
    out.push_str(&command.join(" "));
    out.push('\n');
    record_status(&mut out, &layout.merge_prefix_with("-"), "${SLURM_JOB_ID}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SbatchOptions;
    use std::path::PathBuf;

    #[test]
    fn quoting_leaves_plain_words_alone_and_protects_the_rest() {
        assert_eq!(
            shell_quote("/opt/polyeval/bin/polyeval"),
            "/opt/polyeval/bin/polyeval"
        );
        assert_eq!(shell_quote("--mode=strict"), "--mode=strict");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
        assert_eq!(shell_quote(""), "''");
    }

    fn job() -> ArrayJob {
        let run = "/scratch/runs/gpt4o";
        let args = ["evaluate", run, "--mode", "sound"].map(String::from);
        let mut job = ArrayJob::new("evaluate", run, 4, args.to_vec(), Some("-j".into()));
        job.polyeval = PathBuf::from("/opt/polyeval/bin/polyeval");
        job.sbatch = SbatchOptions {
            partition: Some("cpu".into()),
            time: Some("02:00:00".into()),
            mem: Some("8G".into()),
            cpus_per_task: Some(16),
            extra: vec!["--account=nlp".into(), "--qos=normal".into()],
        };
        job
    }

    #[test]
    fn the_array_script_runs_one_shard_per_task_with_the_cpus_given() {
        let job = job();
        let script = array_script(&job, &Layout::new(&job));
        assert_eq!(
            script,
            r#"#!/bin/bash
#SBATCH --job-name=polyeval-evaluate
#SBATCH --output=/scratch/runs/gpt4o/slurm/evaluate-%A_%a.log
#SBATCH --partition=cpu
#SBATCH --time=02:00:00
#SBATCH --mem=8G
#SBATCH --cpus-per-task=16
#SBATCH --account=nlp
#SBATCH --qos=normal
# Written by polyeval: shard $SLURM_ARRAY_TASK_ID of 4 of `polyeval evaluate` on /scratch/runs/gpt4o.
# Submitted as `sbatch --array=0-3 <this file>`; a failed task alone: `sbatch --array=<task> <this file>`.
set -u
echo "polyeval evaluate shard ${SLURM_ARRAY_TASK_ID}/4 (job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}) on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
/opt/polyeval/bin/polyeval evaluate /scratch/runs/gpt4o --mode sound --shard "${SLURM_ARRAY_TASK_ID}/4" -j "${SLURM_CPUS_PER_TASK:-${SLURM_CPUS_ON_NODE:-1}}"
status=$?
# For `polyeval slurm status`, which outlives Slurm's memory of the job.
printf '%s\n' "$status" > /scratch/runs/gpt4o/slurm/evaluate-"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}".exit.tmp && mv -f /scratch/runs/gpt4o/slurm/evaluate-"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}".exit.tmp /scratch/runs/gpt4o/slurm/evaluate-"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}".exit
exit "$status"
"#
        );
    }

    #[test]
    fn the_merge_script_merges_the_run_on_one_cpu() {
        let job = job();
        let script = merge_script(&job, &Layout::new(&job));
        assert_eq!(
            script,
            r#"#!/bin/bash
#SBATCH --job-name=polyeval-evaluate-merge
#SBATCH --output=/scratch/runs/gpt4o/slurm/evaluate-merge-%j.log
#SBATCH --partition=cpu
#SBATCH --time=02:00:00
#SBATCH --account=nlp
#SBATCH --qos=normal
# Written by polyeval: merges the shards of `polyeval evaluate` into /scratch/runs/gpt4o once every array task succeeded.
set -u
echo "polyeval evaluate merge (job ${SLURM_JOB_ID}) on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
/opt/polyeval/bin/polyeval merge /scratch/runs/gpt4o
status=$?
# For `polyeval slurm status`, which outlives Slurm's memory of the job.
printf '%s\n' "$status" > /scratch/runs/gpt4o/slurm/evaluate-merge-"${SLURM_JOB_ID}".exit.tmp && mv -f /scratch/runs/gpt4o/slurm/evaluate-merge-"${SLURM_JOB_ID}".exit.tmp /scratch/runs/gpt4o/slurm/evaluate-merge-"${SLURM_JOB_ID}".exit
exit "$status"
"#
        );
    }

    #[test]
    fn generation_passes_the_run_as_out_and_no_cpu_count() {
        let run = "/runs/r 1%";
        let args = [
            "generate", "--out", run, "--bench", "multioop", "--model", "qwen",
        ];
        let mut job = ArrayJob::new("generate", run, 2, args.map(String::from).to_vec(), None);
        job.polyeval = PathBuf::from("/bin/polyeval");
        let script = array_script(&job, &Layout::new(&job));
        assert!(
            script.contains("#SBATCH --output=\"/runs/r 1%%/slurm/generate-%A_%a.log\"\n"),
            "{script}"
        );
        assert!(
            script.contains(
                "\n/bin/polyeval generate --out '/runs/r 1%' --bench multioop --model qwen --shard \"${SLURM_ARRAY_TASK_ID}/2\"\n"
            ),
            "{script}"
        );
        assert!(!script.contains(" -j "), "{script}");
        assert!(!script.contains("--cpus-per-task"), "{script}");
    }
}
