//! What a shared library says about itself, read from its ELF file with the
//! `object` crate (no `nm` needed): the symbols it exports and, for libgsl,
//! the version string `gsl_version` points to.

use anyhow::{bail, Context};
use object::elf::{
    PT_LOAD, R_X86_64_RELATIVE, SHN_UNDEF, SHT_DYNSYM, SHT_RELA, STB_GLOBAL, STB_WEAK, STT_FUNC,
    STT_GNU_IFUNC,
};
use object::read::elf::{ElfFile64, ProgramHeader, Rela, SectionHeader, Sym};
use object::Endianness;
use std::collections::HashSet;
use std::path::Path;

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

type Elf<'data> = ElfFile64<'data, Endianness>;

fn parse(elf: &[u8]) -> anyhow::Result<Elf<'_>> {
    Elf::parse(elf).map_err(|e| anyhow::anyhow!("not a 64-bit ELF file: {e}"))
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

/// The dynamic symbol table of a 64-bit ELF shared object.
pub fn dynamic_symbols(elf: &[u8]) -> anyhow::Result<Vec<DynSymbol>> {
    let file = parse(elf)?;
    symbols_of(&file)
}

fn symbols_of(file: &Elf<'_>) -> anyhow::Result<Vec<DynSymbol>> {
    let endian = file.endian();
    let table = file
        .elf_section_table()
        .symbols(endian, file.data(), SHT_DYNSYM)
        .map_err(|e| anyhow::anyhow!("unreadable .dynsym section: {e}"))?;
    if table.is_empty() {
        bail!("no .dynsym section");
    }
    let mut out = Vec::new();
    for symbol in table.symbols() {
        // Names that are not text (or lie outside the string table) name nothing.
        let Some(name) = symbol
            .name(endian, table.strings())
            .ok()
            .and_then(|n| std::str::from_utf8(n).ok())
        else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        let binding = symbol.st_bind();
        out.push(DynSymbol {
            name: name.to_string(),
            defined: symbol.st_shndx(endian) != SHN_UNDEF
                && (binding == STB_GLOBAL || binding == STB_WEAK),
            function: matches!(symbol.st_type(), STT_FUNC | STT_GNU_IFUNC),
            value: symbol.st_value(endian),
        });
    }
    Ok(out)
}

/// File offset of a virtual address, through the PT_LOAD program headers.
fn file_offset(file: &Elf<'_>, vaddr: u64) -> Option<usize> {
    let endian = file.endian();
    file.elf_program_headers()
        .iter()
        .filter(|p| p.p_type(endian) == PT_LOAD)
        .find_map(|p| {
            let (offset, start, filesz) =
                (p.p_offset(endian), p.p_vaddr(endian), p.p_filesz(endian));
            (vaddr >= start && vaddr < start.checked_add(filesz)?)
                .then(|| usize::try_from(offset.checked_add(vaddr - start)?).ok())
                .flatten()
        })
}

fn u64_at(file: &Elf<'_>, off: usize) -> Option<u64> {
    let bytes: [u8; 8] = file.data().get(off..off.checked_add(8)?)?.try_into().ok()?;
    Some(match file.endian() {
        Endianness::Little => u64::from_le_bytes(bytes),
        Endianness::Big => u64::from_be_bytes(bytes),
    })
}

fn c_string(b: &[u8], off: usize) -> Option<&str> {
    let rest = b.get(off..)?;
    let len = rest.iter().position(|&c| c == 0)?;
    std::str::from_utf8(&rest[..len]).ok()
}

/// The string `gsl_version` points to. GSL defines `const char *gsl_version =
/// "2.7.1"`; in a shared object the pointer is filled by an R_X86_64_RELATIVE
/// relocation whose addend is the string's address.
pub fn version_from_elf(elf: &[u8]) -> Option<String> {
    let file = parse(elf).ok()?;
    let endian = file.endian();
    let symbol = symbols_of(&file)
        .ok()?
        .into_iter()
        .find(|s| s.name == "gsl_version" && s.defined)?;
    let mut target = None;
    for section in file.elf_section_table().iter() {
        if section.sh_type(endian) != SHT_RELA {
            continue;
        }
        let Ok(Some((relocations, _))) = section.rela(endian, file.data()) else {
            continue;
        };
        for rela in relocations {
            if rela.r_offset(endian) == symbol.value
                && rela.r_type(endian, false) == R_X86_64_RELATIVE
            {
                target = Some(rela.r_addend(endian) as u64);
            }
        }
    }
    // Without a relocation the pointer is stored in place (non-PIC builds).
    let target = match target {
        Some(t) => t,
        None => u64_at(&file, file_offset(&file, symbol.value)?)?,
    };
    let text = c_string(file.data(), file_offset(&file, target)?)?;
    let plausible = !text.is_empty()
        && text.len() < 16
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c.is_ascii_alphanumeric());
    plausible.then(|| text.to_string())
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
}
