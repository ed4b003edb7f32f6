//! JavaScript: `main.js` is the observer and a call of the kit that runs
//! `driver.js` (the task's driver as the body of `async function (ipc)`);
//! the candidate is `solution.js`, loaded by `ipc.loadSolution()`.

use super::Program;

const KIT: &str = include_str!("../kits/polyeval_ipc.js");

pub(super) fn program(candidate: &str, driver: &str) -> Program {
    let main = format!(
        "{}\nrequire('./polyeval_ipc.js').main(__polyeval);\n",
        polyeval_lang::javascript::OBSERVER
    );
    Program {
        main: ("main.js".into(), main),
        files: vec![
            ("solution.js".into(), candidate.to_string()),
            (
                "driver.js".into(),
                format!("module.exports = async function (ipc) {{\n{driver}\n}};\n"),
            ),
            ("polyeval_ipc.js".into(), KIT.into()),
        ],
        binds: Vec::new(),
        compiled: false,
    }
}
