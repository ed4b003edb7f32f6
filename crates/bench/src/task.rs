//! The task model of polyeval's benchmarks: core's generic [`Task`] and
//! [`TaskSet`] with [`TaskMeta`], which joins the metadata each benchmark
//! defines in its folder.

pub use crate::crosspl_ffi::FfiMeta;
pub use crate::crosspl_ipc::{IpcDriver, IpcMeta};
pub use crate::multioop::OopMeta;
use polyeval_core::technique::{CodeLevel, Technique};
use polyeval_core::TaskAttributes;
use polyeval_judge::coverage::TestLines;
use serde::{Deserialize, Serialize};

/// A task of one of polyeval's benchmarks.
pub type Task = polyeval_core::Task<TaskMeta>;
/// A loaded set of tasks of one of polyeval's benchmarks.
pub type TaskSet = polyeval_core::TaskSet<TaskMeta>;

/// What a task carries besides the common fields, by benchmark family. The
/// serialisation (`{"kind": "ipc", …fields}`) is what run stores, reports
/// and the task cache hold, and what the task-set fingerprint is taken over.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TaskMeta {
    /// CrossPL-IPC, static and executed.
    Ipc(IpcMeta),
    /// CrossPL-FFI.
    Ffi(FfiMeta),
    /// MultiOOP and OOP.
    Oop(OopMeta),
}

impl TaskAttributes for TaskMeta {
    fn technique(&self) -> Option<Technique> {
        match self {
            TaskMeta::Ipc(ipc) => Some(ipc.technique),
            TaskMeta::Ffi(_) | TaskMeta::Oop(_) => None,
        }
    }

    fn code_level(&self) -> Option<CodeLevel> {
        match self {
            TaskMeta::Ipc(ipc) => Some(ipc.code_level),
            TaskMeta::Ffi(_) | TaskMeta::Oop(_) => None,
        }
    }
}

impl TestLines for TaskMeta {
    fn test_lines(&self) -> Option<&[String]> {
        match self {
            TaskMeta::Oop(oop) => Some(&oop.test_list),
            TaskMeta::Ipc(_) | TaskMeta::Ffi(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::Bench;
    use polyeval_lang::Language;

    fn task(bench: Bench, language: Language, meta: TaskMeta) -> Task {
        Task {
            bench,
            key: format!("{}/7", language.key()),
            task_id: "7".into(),
            language,
            instruction: "Write it.".into(),
            canonical_solution: Some("solution".into()),
            source_path: "/data/x.json".into(),
            meta,
        }
    }

    fn tasks() -> Vec<Task> {
        vec![
            task(
                Bench::CrossplIpc,
                Language::Java,
                TaskMeta::Ipc(IpcMeta {
                    suffix: ".java".into(),
                    fsm_id: 12,
                    interface: "java.net ServerSocket".into(),
                    code_level: CodeLevel::Class,
                    technique: Technique::Tcp,
                    github_project: "owner/project".into(),
                    driver: None,
                }),
            ),
            task(
                Bench::CrossplIpcExec,
                Language::Go,
                TaskMeta::Ipc(IpcMeta {
                    suffix: ".go".into(),
                    fsm_id: 3,
                    interface: "net/http".into(),
                    code_level: CodeLevel::Function,
                    technique: Technique::MessageQueue,
                    github_project: String::new(),
                    driver: Some(Box::new(IpcDriver {
                        driver: "package main".into(),
                        files: vec![("peer.py".into(), "print(1)".into())],
                    })),
                }),
            ),
            task(
                Bench::CrossplFfi,
                Language::Python,
                TaskMeta::Ffi(FfiMeta {
                    assert_test: "def assert_test(): pass".into(),
                }),
            ),
            task(
                Bench::MultiOop,
                Language::Cpp,
                TaskMeta::Oop(OopMeta {
                    test_list: vec!["assert(f(1) == 2);".into()],
                    test_function: "".into(),
                    entry_point: "f".into(),
                    keywords: vec![vec!["class".into()], vec![]],
                }),
            ),
        ]
    }

    /// What releases before the metadata moved out of core wrote, for
    /// these tasks: the JSON of reports and run configurations, the
    /// MessagePack of the parsed-task cache, and the task-set fingerprint
    /// that resumed runs check.
    const JSON: [&str; 4] = [
        r#"{"bench":"crosspl-ipc","key":"java/7","task_id":"7","language":"java","instruction":"Write it.","canonical_solution":"solution","source_path":"/data/x.json","meta":{"kind":"ipc","suffix":".java","fsm_id":12,"interface":"java.net ServerSocket","code_level":"Class-level","technique":"TCP","github_project":"owner/project"}}"#,
        r#"{"bench":"crosspl-ipc-exec","key":"go/7","task_id":"7","language":"go","instruction":"Write it.","canonical_solution":"solution","source_path":"/data/x.json","meta":{"kind":"ipc","suffix":".go","fsm_id":3,"interface":"net/http","code_level":"Function-level","technique":"Message Queue","github_project":"","driver":{"driver":"package main","files":[["peer.py","print(1)"]]}}}"#,
        r#"{"bench":"crosspl-ffi","key":"python/7","task_id":"7","language":"python","instruction":"Write it.","canonical_solution":"solution","source_path":"/data/x.json","meta":{"kind":"ffi","assert_test":"def assert_test(): pass"}}"#,
        r#"{"bench":"multioop","key":"cpp/7","task_id":"7","language":"cpp","instruction":"Write it.","canonical_solution":"solution","source_path":"/data/x.json","meta":{"kind":"oop","test_list":["assert(f(1) == 2);"],"test_function":"","entry_point":"f","keywords":[["class"],[]]}}"#,
    ];
    const MSGPACK: [&str; 4] = [
        "98ab63726f7373706c2d697063a66a6176612f37a137a46a617661a957726974652069742ea8736f6c7574696f6eac2f646174612f782e6a736f6e97a3697063a52e6a6176610cb56a6176612e6e657420536572766572536f636b6574ab436c6173732d6c6576656ca3544350ad6f776e65722f70726f6a656374",
        "98b063726f7373706c2d6970632d65786563a4676f2f37a137a2676fa957726974652069742ea8736f6c7574696f6eac2f646174612f782e6a736f6e98a3697063a32e676f03a86e65742f68747470ae46756e6374696f6e2d6c6576656cad4d657373616765205175657565a092ac7061636b616765206d61696e9192a7706565722e7079a87072696e74283129",
        "98ab63726f7373706c2d666669a8707974686f6e2f37a137a6707974686f6ea957726974652069742ea8736f6c7574696f6eac2f646174612f782e6a736f6e92a3666669b7646566206173736572745f7465737428293a2070617373",
        "98a86d756c74696f6f70a56370702f37a137a3637070a957726974652069742ea8736f6c7574696f6eac2f646174612f782e6a736f6e95a36f6f7091b26173736572742866283129203d3d2032293ba0a1669291a5636c61737390",
    ];
    const FINGERPRINT: &str = "36443706ba1b666bbb3313813468aebf7b907bf9e5f79d8b1c7a4c5d95dd76e7";

    #[test]
    fn tasks_serialise_as_earlier_releases_wrote_them() {
        for ((task, json), msgpack) in tasks().iter().zip(JSON).zip(MSGPACK) {
            assert_eq!(serde_json::to_string(task).unwrap(), json);
            let bytes = rmp_serde::to_vec(task).unwrap();
            assert_eq!(hex::encode(&bytes), msgpack, "{json}");
            let from_json: Task = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::to_string(&from_json).unwrap(), json);
            let from_cache: Task = rmp_serde::from_slice(&bytes).unwrap();
            assert_eq!(serde_json::to_string(&from_cache).unwrap(), json);
        }
    }

    #[test]
    fn the_task_set_fingerprint_is_the_one_earlier_releases_stored() {
        assert_eq!(
            polyeval_core::loading::fingerprint(Bench::CrossplIpc, &tasks()),
            FINGERPRINT
        );
    }
}
