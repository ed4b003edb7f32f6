//! Python: `main.py` is the observer and a call of the kit that runs
//! `driver.py`; the candidate is the module `solution`.

use super::Program;

const KIT: &str = include_str!("../kits/polyeval_ipc.py");

/// What runs the driver once the observer is installed.
const RUN_DRIVER: &str = "import polyeval_ipc as __polyeval_ipc\n__polyeval_ipc._main(\"driver.py\", __polyeval_observe, lambda: __polyeval_finish(False, ()))\n";

pub(super) fn program(candidate: &str, driver: &str) -> Program {
    Program {
        main: (
            "main.py".into(),
            polyeval_lang::python::judging::with_prelude(RUN_DRIVER),
        ),
        files: vec![
            ("solution.py".into(), candidate.to_string()),
            ("driver.py".into(), driver.to_string()),
            ("polyeval_ipc.py".into(), KIT.into()),
        ],
        binds: Vec::new(),
        compiled: false,
    }
}
