//! End to end: render the HTML report, load it in headless Chromium, take a
//! screenshot, and check from the DOM Chromium built that the tables and
//! charts are there, the page's own script ran, and a `<script>` (and an
//! `onerror` handler) inside a model answer is shown as text, not run.

mod common;

use polyeval_report::{build_report, render, Format, ReportOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium(args: &[String], profile: &Path) -> std::process::Output {
    if !Path::new(CHROMIUM).exists() {
        panic!("{CHROMIUM} is missing: this test needs Debian's `chromium` package (the install script installs it)");
    }
    let mut cmd = Command::new(CHROMIUM);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--virtual-time-budget=3000",
    ]);
    cmd.arg(format!("--user-data-dir={}", profile.display()));
    cmd.args(args);
    cmd.output().expect("running chromium")
}

#[test]
fn html_report_renders_in_chromium_and_model_output_stays_text() {
    // Three languages and techniques: a radar needs three groups with data.
    let with_go = |mut run: polyeval_report::RunData| {
        for (i, t) in run.tasks.iter_mut().enumerate() {
            if i % 6 == 5 {
                t.language = polyeval_lang::Language::Go;
                t.key = format!("go/{}", t.task_id);
                t.technique = Some(polyeval_core::technique::Technique::Udp);
            }
        }
        run
    };
    let a = with_go(common::ipc_run("model-a", 24, |i| i % 4 != 0));
    let b = with_go(common::ipc_run("model-b <i>x</i>", 24, |i| i % 3 != 0));
    let opts = ReportOptions {
        ks: vec![1],
        seed: 5,
        resamples: 300,
    };
    let runs = vec![a, b];
    let report = build_report(&runs, &opts);
    let html = render(&report, &runs, Format::Html, &opts).unwrap();
    // Self-contained: nothing fetched from the network.
    for needle in ["http://", "https://", "src=\"//"] {
        for (i, _) in html.match_indices(needle) {
            let ctx = &html[i.saturating_sub(40)..(i + 60).min(html.len())];
            assert!(
                ctx.contains("www.w3.org"),
                "network reference in the page: …{ctx}…"
            );
        }
    }
    assert!(
        !html.contains(common::EVIL),
        "the hostile completion must not appear unescaped"
    );

    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).unwrap();
    let url = format!("file://{}", page.display());
    let profile = dir.path().join("profile");

    let shot: PathBuf = dir.path().join("shot.png");
    let out = chromium(
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1400,2400".into(),
            url.clone(),
        ],
        &profile,
    );
    assert!(
        shot.exists(),
        "chromium wrote no screenshot; stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    assert!(
        png.len() > 20_000,
        "screenshot suspiciously small ({} bytes): blank page?",
        png.len()
    );
    if let Ok(keep) = std::env::var("POLYEVAL_KEEP_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }

    let out = chromium(&["--dump-dom".into(), url], &profile);
    let dom = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        dom.contains("<table class=\"data\""),
        "no tables in the DOM:\n{}",
        &dom[..dom.len().min(2000)]
    );
    assert!(
        dom.contains("CrossPL-IPC pass@1 by language"),
        "paper table missing"
    );
    assert!(
        dom.matches("<svg").count() >= 3,
        "expected radar and bar charts as inline SVG"
    );
    assert!(
        dom.contains("data-plot=\"radar-language\"")
            && dom.contains("data-plot=\"radar-technique\"")
    );
    // The page's own script ran (so the check below is meaningful) …
    assert!(
        dom.contains("data-js-ready=\"1\""),
        "the report's own script did not run"
    );
    assert!(
        dom.contains("tasks shown"),
        "the filter script did not fill in its counter"
    );
    // … and the model's did not.
    assert!(
        !dom.contains("PWNED") || dom.contains("document.title='PWNED'"),
        "title text present outside the escaped code"
    );
    let title = dom
        .split("<title>")
        .nth(1)
        .and_then(|s| s.split("</title>").next())
        .unwrap_or("");
    assert!(
        title.starts_with("polyeval report"),
        "document.title was changed to `{title}`"
    );
    assert!(
        !dom.contains("id=\"pwned\""),
        "the injected <script> ran and added an element"
    );
    assert!(
        !dom.contains("data-pwned=\"1\""),
        "the injected onerror handler ran"
    );
    assert!(
        dom.contains("&lt;script&gt;document.title='PWNED'"),
        "the model's <script> is not shown as text in the drill-down"
    );
    assert!(
        dom.contains("model-b &lt;i&gt;x&lt;/i&gt;"),
        "model names are escaped too"
    );
}
