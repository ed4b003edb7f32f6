//! Finding the GNU Scientific Library on the host and describing it: its
//! version and the symbols it exports (read from the ELF dynamic symbol table,
//! no `nm` needed), so a task that calls a symbol this GSL lacks can be told
//! apart from a model that invented one.
//!
//! CrossPL-FFI tasks load `/usr/local/gsl/lib/libgslcblas.so` and
//! `/usr/local/gsl/lib/libgsl.so`; the evaluator binds the libraries found
//! here read-only at exactly those paths inside the sandbox. Which GSL:
//! `--gsl-dir`, else polyeval's GSL 2.8 build (`polyeval setup gsl`), else the
//! system's ([`polyeval_sandbox::gsl::find`]).
//!
//! The symbols GSL 2.8 added are not listed by hand: they are the exports of
//! the GSL 2.8 build minus those of the GSL in use ([`GslInstall::added_in_2_8`]).
//! Without a 2.8 build there is nothing to compare with, and a missing symbol
//! is reported as such (`symbol_resolution`, saying that whether GSL 2.8 has
//! it is unknown) rather than guessed.

use anyhow::{bail, Context};
use polyeval_sandbox::gsl::{GslOrigin, GSL_BUILD_VERSION};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where the tasks expect GSL (inside the sandbox).
pub const SANDBOX_LIBGSL: &str = "/usr/local/gsl/lib/libgsl.so";
pub const SANDBOX_LIBGSLCBLAS: &str = "/usr/local/gsl/lib/libgslcblas.so";

/// The GSL used for evaluation.
#[derive(Debug, Clone)]
pub struct GslInstall {
    /// Host path of libgsl (symlinks resolved).
    pub libgsl: PathBuf,
    /// Host path of libgslcblas (symlinks resolved).
    pub libgslcblas: PathBuf,
    /// Version, e.g. "2.7.1", when it could be determined.
    pub version: Option<String>,
    /// How the version was determined (for `doctor`).
    pub version_source: String,
    /// `--gsl-dir`, polyeval's cached build, or the system's.
    pub origin: GslOrigin,
    /// Symbols libgsl exports (defined, global or weak).
    pub symbols: HashSet<String>,
    /// GSL 2.8, the release the benchmark was built with: this GSL itself
    /// when it is 2.8, else the cached build when there is one.
    pub reference: Option<GslReference>,
}

/// The exports of a GSL 2.8 library, to compare the GSL in use with.
#[derive(Debug, Clone)]
pub struct GslReference {
    pub libgsl: PathBuf,
    pub symbols: Arc<HashSet<String>>,
}

/// The symbols `lib` (an ELF shared object) exports: defined, global or weak.
pub fn exported_symbols(lib: &Path) -> anyhow::Result<HashSet<String>> {
    let elf = std::fs::read(lib).with_context(|| format!("{}: cannot read", lib.display()))?;
    Ok(dynamic_symbols(&elf)
        .with_context(|| format!("{}: cannot read ELF dynamic symbols", lib.display()))?
        .into_iter()
        .filter(|s| s.defined)
        .map(|s| s.name)
        .collect())
}

/// The symbols `newer` exports and `older` does not, sorted.
pub fn symbols_added(newer: &HashSet<String>, older: &HashSet<String>) -> BTreeSet<String> {
    newer.difference(older).cloned().collect()
}

impl GslInstall {
    /// Find GSL in `gsl_dir` (when given), polyeval's GSL 2.8 build or on the
    /// dynamic linker's search path (`polyeval_sandbox::gsl::find`), and read
    /// its symbols and version, and those of GSL 2.8 to compare with.
    pub fn discover(gsl_dir: Option<&Path>) -> anyhow::Result<GslInstall> {
        let found = polyeval_sandbox::gsl::find(gsl_dir)?;
        // Bind the real files: symlinks would not resolve inside the sandbox.
        let resolve = |p: PathBuf| p.canonicalize().unwrap_or(p);
        let (libgsl, libgslcblas) = (resolve(found.libgsl), resolve(found.libgslcblas));
        let elf =
            std::fs::read(&libgsl).with_context(|| format!("{}: cannot read", libgsl.display()))?;
        let dynsyms = dynamic_symbols(&elf)
            .with_context(|| format!("{}: cannot read ELF dynamic symbols", libgsl.display()))?;
        // The library's own version string beats gsl-config, which describes
        // whichever GSL is on PATH rather than the one given with --gsl-dir.
        let (version, version_source) = match version_from_elf(&elf) {
            Some(v) => (Some(v), "the gsl_version string in libgsl".to_string()),
            None => match version_from_file_name(&libgsl) {
                Some(v) => (
                    Some(v),
                    format!("the library file name {}", libgsl.display()),
                ),
                None if found.version != "unknown" => {
                    (Some(found.version), "gsl-config or the soname".to_string())
                }
                None => (None, "unknown".to_string()),
            },
        };
        let symbols: HashSet<String> = dynsyms
            .into_iter()
            .filter(|s| s.defined)
            .map(|s| s.name)
            .collect();
        let reference = if version.as_deref() == Some(GSL_BUILD_VERSION) {
            Some(GslReference {
                libgsl: libgsl.clone(),
                symbols: Arc::new(symbols.clone()),
            })
        } else {
            cached_reference()?
        };
        Ok(GslInstall {
            libgsl,
            libgslcblas,
            version,
            version_source,
            origin: found.origin,
            symbols,
            reference,
        })
    }

    /// Read-only binds making the task paths resolve to this GSL inside the sandbox.
    pub fn ro_binds(&self) -> Vec<(PathBuf, PathBuf)> {
        vec![
            (self.libgsl.clone(), PathBuf::from(SANDBOX_LIBGSL)),
            (self.libgslcblas.clone(), PathBuf::from(SANDBOX_LIBGSLCBLAS)),
        ]
    }

    pub fn exports(&self, symbol: &str) -> bool {
        self.symbols.contains(symbol)
    }

    /// Whether this is GSL 2.8, the release the benchmark was built with.
    pub fn is_benchmark_release(&self) -> bool {
        self.version.as_deref() == Some(GSL_BUILD_VERSION)
    }

    /// True when `symbol` is missing here but GSL 2.8 exports it, i.e. the
    /// task (or answer) is right and this installation is too old. Always
    /// false without a GSL 2.8 build to compare with.
    pub fn lacks_newer_symbol(&self, symbol: &str) -> bool {
        !self.exports(symbol)
            && self
                .reference
                .as_ref()
                .is_some_and(|r| r.symbols.contains(symbol))
    }

    /// The symbols GSL 2.8 exports and this GSL does not (empty for 2.8
    /// itself); `None` without a GSL 2.8 build to compare with.
    pub fn added_in_2_8(&self) -> Option<BTreeSet<String>> {
        self.reference
            .as_ref()
            .map(|r| symbols_added(&r.symbols, &self.symbols))
    }
}

/// The exports of the cached GSL 2.8 build, if there is one.
fn cached_reference() -> anyhow::Result<Option<GslReference>> {
    let Some(build) = polyeval_sandbox::gsl::cached_build() else {
        return Ok(None);
    };
    let lib = build.join("lib/libgsl.so");
    let libgsl = lib.canonicalize().unwrap_or(lib);
    Ok(Some(GslReference {
        symbols: Arc::new(exported_symbols(&libgsl)?),
        libgsl,
    }))
}

/// One entry of an ELF `.dynsym` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynSymbol {
    pub name: String,
    /// Defined in this object (not an import) with global or weak binding.
    pub defined: bool,
    /// A function (STT_FUNC or STT_GNU_IFUNC), not data.
    pub function: bool,
    pub value: u64,
}

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(off..off.checked_add(2)?)?.try_into().ok()?,
    ))
}
fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(off..off.checked_add(4)?)?.try_into().ok()?,
    ))
}
fn u64_at(b: &[u8], off: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        b.get(off..off.checked_add(8)?)?.try_into().ok()?,
    ))
}
fn usize_at(b: &[u8], off: usize) -> Option<usize> {
    usize::try_from(u64_at(b, off)?).ok()
}

struct Section {
    kind: u32,
    offset: usize,
    size: usize,
    link: usize,
    entsize: usize,
}

fn sections(elf: &[u8]) -> anyhow::Result<Vec<Section>> {
    if elf.get(0..4) != Some(b"\x7fELF") {
        bail!("not an ELF file");
    }
    if elf.get(4) != Some(&2) || elf.get(5) != Some(&1) {
        bail!("only 64-bit little-endian ELF files are supported");
    }
    let bad = || anyhow::anyhow!("truncated or malformed ELF header");
    let shoff = usize_at(elf, 0x28).ok_or_else(bad)?;
    let shentsize = usize::from(u16_at(elf, 0x3A).ok_or_else(bad)?);
    let shnum = usize::from(u16_at(elf, 0x3C).ok_or_else(bad)?);
    if shentsize < 64 {
        bail!("malformed ELF section header size {shentsize}");
    }
    let mut out = Vec::with_capacity(shnum);
    for k in 0..shnum {
        let base = shoff
            .checked_add(k.checked_mul(shentsize).ok_or_else(bad)?)
            .ok_or_else(bad)?;
        out.push(Section {
            kind: u32_at(elf, base.saturating_add(4)).ok_or_else(bad)?,
            offset: usize_at(elf, base.saturating_add(24)).ok_or_else(bad)?,
            size: usize_at(elf, base.saturating_add(32)).ok_or_else(bad)?,
            link: u32_at(elf, base.saturating_add(40)).ok_or_else(bad)? as usize,
            entsize: usize_at(elf, base.saturating_add(56)).ok_or_else(bad)?,
        });
    }
    Ok(out)
}

fn c_string(b: &[u8], off: usize) -> Option<&str> {
    let rest = b.get(off..)?;
    let len = rest.iter().position(|&c| c == 0)?;
    std::str::from_utf8(&rest[..len]).ok()
}

/// The dynamic symbol table of a 64-bit little-endian ELF shared object.
pub fn dynamic_symbols(elf: &[u8]) -> anyhow::Result<Vec<DynSymbol>> {
    const SHT_DYNSYM: u32 = 11;
    let sections = sections(elf)?;
    let dynsym = sections
        .iter()
        .find(|s| s.kind == SHT_DYNSYM)
        .context("no .dynsym section")?;
    let strtab = sections
        .get(dynsym.link)
        .context(".dynsym links to a missing string table")?;
    let strings = elf
        .get(strtab.offset..strtab.offset.saturating_add(strtab.size))
        .context("string table lies outside the file")?;
    let entsize = if dynsym.entsize == 0 {
        24
    } else {
        dynsym.entsize
    };
    if !matches!(dynsym.offset.checked_add(dynsym.size), Some(end) if end <= elf.len()) {
        bail!("symbol table lies outside the file");
    }
    let mut out = Vec::new();
    for k in 0..dynsym.size / entsize {
        let base = dynsym.offset.saturating_add(k.saturating_mul(entsize));
        let (Some(name_off), Some(info), Some(shndx), Some(value)) = (
            u32_at(elf, base),
            elf.get(base.saturating_add(4)),
            u16_at(elf, base.saturating_add(6)),
            u64_at(elf, base.saturating_add(8)),
        ) else {
            bail!("symbol table lies outside the file");
        };
        let Some(name) = c_string(strings, name_off as usize) else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        let binding = info >> 4;
        out.push(DynSymbol {
            name: name.to_string(),
            defined: shndx != 0 && (binding == 1 || binding == 2),
            function: matches!(info & 0xf, 2 | 10),
            value,
        });
    }
    Ok(out)
}

/// File offset of a virtual address, through the PT_LOAD program headers.
fn file_offset(elf: &[u8], vaddr: u64) -> Option<usize> {
    let phoff = usize_at(elf, 0x20)?;
    let phentsize = usize::from(u16_at(elf, 0x36)?);
    let phnum = usize::from(u16_at(elf, 0x38)?);
    for k in 0..phnum {
        let base = phoff.checked_add(k.checked_mul(phentsize)?)?;
        if u32_at(elf, base)? != 1 {
            continue; // not PT_LOAD
        }
        let (offset, start, filesz) = (
            u64_at(elf, base.saturating_add(8))?,
            u64_at(elf, base.saturating_add(16))?,
            u64_at(elf, base.saturating_add(32))?,
        );
        if vaddr >= start && vaddr < start.checked_add(filesz)? {
            return usize::try_from(offset.checked_add(vaddr - start)?).ok();
        }
    }
    None
}

/// The string `gsl_version` points to. GSL defines `const char *gsl_version =
/// "2.7.1"`; in a shared object the pointer is filled by an R_X86_64_RELATIVE
/// relocation whose addend is the string's address.
pub fn version_from_elf(elf: &[u8]) -> Option<String> {
    const SHT_RELA: u32 = 4;
    const R_X86_64_RELATIVE: u64 = 8;
    let symbol = dynamic_symbols(elf)
        .ok()?
        .into_iter()
        .find(|s| s.name == "gsl_version" && s.defined)?;
    let mut target = None;
    let in_file = |s: &&Section| {
        s.offset
            .checked_add(s.size)
            .is_some_and(|end| end <= elf.len())
    };
    for rela in sections(elf)
        .ok()?
        .iter()
        .filter(|s| s.kind == SHT_RELA)
        .filter(in_file)
    {
        for k in 0..rela.size / 24 {
            let base = rela.offset.saturating_add(k.saturating_mul(24));
            if u64_at(elf, base)? == symbol.value
                && u64_at(elf, base.saturating_add(8))? & 0xffff_ffff == R_X86_64_RELATIVE
            {
                target = Some(u64_at(elf, base.saturating_add(16))?);
            }
        }
    }
    // Without a relocation the pointer is stored in place (non-PIC builds).
    let target = match target {
        Some(t) => t,
        None => u64_at(elf, file_offset(elf, symbol.value)?)?,
    };
    let text = c_string(elf, file_offset(elf, target)?)?;
    let plausible = !text.is_empty()
        && text.len() < 16
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c.is_ascii_alphanumeric());
    plausible.then(|| text.to_string())
}

/// GSL's library version numbers follow its releases: libgsl.so.27 is 2.7.x, libgsl.so.28 is 2.8.
fn version_from_file_name(libgsl: &Path) -> Option<String> {
    let name = libgsl.file_name()?.to_str()?;
    let major: u32 = name
        .strip_prefix("libgsl.so.")?
        .split('.')
        .next()?
        .parse()
        .ok()?;
    match major {
        25 => Some("2.6".into()),
        27 => Some("2.7".into()),
        28 => Some("2.8".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_elf_is_an_error_not_a_panic() {
        assert!(dynamic_symbols(b"").is_err());
        assert!(dynamic_symbols(b"\x7fELF\x02\x01").is_err());
        let mut junk = b"\x7fELF\x02\x01\x01".to_vec();
        junk.resize(200, 0xff);
        assert!(dynamic_symbols(&junk).is_err());
        assert_eq!(version_from_elf(&junk), None);
    }

    #[test]
    fn file_name_versions() {
        assert_eq!(
            version_from_file_name(Path::new("/x/libgsl.so.27.0.0")).as_deref(),
            Some("2.7")
        );
        assert_eq!(version_from_file_name(Path::new("/x/libgsl.so")), None);
    }

    #[test]
    fn gsl_dir_without_libraries_names_the_dir() {
        let dir = tempfile::tempdir().unwrap();
        let err = GslInstall::discover(Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&dir.path().display().to_string()) && err.contains("libgsl"),
            "{err}"
        );
    }
}
