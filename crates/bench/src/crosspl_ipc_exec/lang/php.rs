//! PHP: `main.php` is the observer, the runtime's autoloader and a call of
//! the kit that runs `driver.php`; the candidate is `solution.php`, loaded
//! by `ipc_load_solution()`. The runtime's autoloader is also bound at
//! `vendor/autoload.php` of the work dir, where Composer projects load it
//! from.

use super::Program;
use crate::crosspl_ipc_exec::runtime::IpcRuntime;
use std::path::PathBuf;

const KIT: &str = include_str!("../kits/polyeval_ipc.php");

/// `code` as a PHP file: with an opening tag when it has none.
fn php_file(code: &str) -> String {
    let trimmed = code.trim_start();
    if trimmed.starts_with("<?php") || trimmed.starts_with("<?") {
        code.to_string()
    } else {
        format!("<?php\n{code}")
    }
}

pub(super) fn program(candidate: &str, driver: &str, runtime: &IpcRuntime) -> Program {
    let main = format!(
        "<?php\n{}\nrequire_once '{}';\nrequire_once __DIR__ . '/polyeval_ipc.php';\nipc_main(__DIR__ . '/driver.php');\n",
        polyeval_lang::php::OBSERVER,
        runtime.php_autoload()
    );
    let vendor = runtime.dir.join(
        std::path::Path::new(&runtime.manifest.paths.php_autoload)
            .parent()
            .unwrap_or(std::path::Path::new("php")),
    );
    Program {
        main: ("main.php".into(), main),
        files: vec![
            ("solution.php".into(), php_file(candidate)),
            ("driver.php".into(), php_file(driver)),
            ("polyeval_ipc.php".into(), KIT.into()),
        ],
        binds: vec![(vendor, PathBuf::from("/sandbox/vendor"))],
        compiled: false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_opening_tag_is_added_only_when_missing() {
        assert_eq!(super::php_file("echo 1;"), "<?php\necho 1;");
        assert_eq!(super::php_file("\n<?php echo 1;"), "\n<?php echo 1;");
    }
}
