//! Public IDs that do not tell when (docs/PUBLIC_IDS.md): a v7 key's public face, which looks
//! like a random v4, and back — uuidv47's construction ([`uuid_ext_core::public_ids`]).
//!
//! The key comes from the server: `uuid_ext.public_id_key_file` names a file of keys that a
//! superuser sets in postgresql.conf (a superuser-only setting: no other role can see even
//! the name), one key a line as 32 hex digits, the first the key faces are made with, the
//! others older ones still read. The server process reads the file; it must be readable by
//! the server's OS user alone (mode 0600 or 0400), as PostgreSQL asks of its TLS key. No key
//! ever appears in a setting, a message or a statement: so a role may map IDs, as `GRANT
//! EXECUTE` allows it (PUBLIC may not), without being able to learn the key. Variants that
//! take the key as an argument, IMMUTABLE, serve applications that keep the key themselves
//! and expression indexes.
//!
//! Each backend reads the file when a mapping first needs it and keeps the keys; a transaction
//! that maps more than a second after the last look at the file looks again (one `stat()`), and
//! reads it anew when its path, size, times or inode changed — so a superuser rotates keys by
//! editing the file (new key first), with no reload needed, and every backend follows within a
//! second. One transaction maps with one set of keys.

use crate::pg::convert::{bytes, uuid};
use crate::pg::errors::{error, Kind, OrRaise};
use crate::pg::fmgr::uuid_map_function;
use core::cell::{Cell, RefCell};
use core::ffi::{c_char, CStr};
use core::sync::atomic::{AtomicU64, Ordering};
use pgrx::prelude::*;
use pgrx::{GucContext, GucFlags, GucSetting, PgSqlErrorCode, Uuid};
use std::ffi::CString;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use uuid_ext_core::public_ids::{self, Key};
use uuid_ext_core::Bytes;

static KEY_FILE: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);

/// A key file is at most this long, and holds at most this many keys.
const MAX_FILE_BYTES: u64 = 65_536;
const MAX_KEYS: usize = 64;

const HINT_SET: &str = "A superuser names a file of keys in postgresql.conf: uuid_ext.public_id_key_file = \
                        '/path/to/keys', readable by the server's user alone; then SELECT pg_reload_conf() \
                        (docs/PUBLIC_IDS.md).";

pub fn init() {
    // SAFETY: _PG_init; the name, descriptions and value address live as long as the library.
    // (pgrx's define_string_guc takes no assign hook.)
    unsafe {
        pgrx::pg_sys::DefineCustomStringVariable(
            c"uuid_ext.public_id_key_file".as_ptr(),
            c"File of the keys that map v7 keys to their public faces and back.".as_ptr(),
            c"One key a line, 32 hex digits; the first makes faces, all of them read faces. \
              Readable by the server's user alone. Superuser only."
                .as_ptr(),
            KEY_FILE.as_ptr(),
            core::ptr::null(),
            GucContext::Sighup as isize as _,
            GucFlags::SUPERUSER_ONLY.bits(),
            None,
            Some(key_file_assigned),
            None,
        );
    }
}

/// Advanced whenever `uuid_ext.public_id_key_file` is assigned, so the fast path needs no
/// string comparison to know the setting it cached the key for is still in force.
static SETTING_GENERATION: AtomicU64 = AtomicU64::new(0);

/// The setting's assign hook: cannot fail, allocates nothing.
unsafe extern "C-unwind" fn key_file_assigned(_new: *const c_char, _extra: *mut core::ffi::c_void) {
    SETTING_GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// What identifies the file's contents without reading them.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

struct Loaded {
    path: CString,
    stamp: Stamp,
    keys: Vec<Key>,
    /// The start of the transaction in which the file was last looked at, and when (the
    /// monotonic clock, ns).
    checked: pgrx::pg_sys::TimestampTz,
    looked_at: i64,
}

thread_local! {
    static LOADED: RefCell<Option<Loaded>> = const { RefCell::new(None) };
    /// The current key, the setting generation, and the transaction and time the file was
    /// looked at.
    static FAST: Cell<Option<(u64, pgrx::pg_sys::TimestampTz, i64, Key)>> = const { Cell::new(None) };
}

crate::pg::ffi::unguarded! {
    /// PostgreSQL's `GetCurrentTransactionStartTimestamp()`: reads a variable, cannot fail.
    fn transaction_start() -> pgrx::pg_sys::TimestampTz = GetCurrentTransactionStartTimestamp;
}

/// How long a look at the file stands for later transactions (a key rotation shows within it).
const LOOK_NS: i64 = 1_000_000_000;

/// The monotonic clock, coarse (a few ms: enough for [`LOOK_NS`], and cheaper), in ns.
fn monotonic_ns() -> i64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a clock that always exists; the vDSO answers without a system call.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_COARSE, &mut ts) };
    ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// Whether keys looked at in transaction `checked` at `looked_at` stand for this moment: in the
/// same transaction always (one transaction maps with one set of keys), in a later one for a
/// second.
fn still_current(checked: pgrx::pg_sys::TimestampTz, looked_at: i64) -> bool {
    // SAFETY: reads a transaction variable.
    checked == unsafe { transaction_start() } || monotonic_ns().saturating_sub(looked_at) < LOOK_NS
}

/// The current key, when the file was looked at in this transaction or less than a second ago:
/// no PostgreSQL call that can fail, no allocation, no string comparison, for the fast path.
/// `None`: ask [`with_keys`].
fn cached_key() -> Option<Key> {
    let (generation, checked, looked_at, key) = FAST.with(Cell::get)?;
    (generation == SETTING_GENERATION.load(Ordering::Relaxed) && still_current(checked, looked_at)).then_some(key)
}

/// Runs `f` with the keys of the file the setting names, read or re-read as needed.
fn with_keys<R>(f: impl FnOnce(&[Key]) -> R) -> R {
    let path = match KEY_FILE.get() {
        Some(p) if !p.as_bytes().is_empty() => p,
        _ => error(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            "public IDs need a key: uuid_ext.public_id_key_file is not set".into(),
            None,
            Some(HINT_SET),
        ),
    };
    // SAFETY: a transaction variable.
    let now = unsafe { transaction_start() };
    let generation = SETTING_GENERATION.load(Ordering::Relaxed);
    FAST.with(|fast| fast.set(None));
    LOADED.with(|cell| {
        let mut slot = cell.borrow_mut();
        let current = match slot.as_mut() {
            Some(l) if l.path == path && still_current(l.checked, l.looked_at) => true,
            Some(l) if l.path == path && stamp(&path).ok() == Some(l.stamp) => {
                (l.checked, l.looked_at) = (now, monotonic_ns());
                true
            }
            _ => false,
        };
        if !current {
            *slot = None;
            let (stamp, keys) = read(&path);
            *slot = Some(Loaded { path, stamp, keys, checked: now, looked_at: monotonic_ns() });
        }
        let l = slot.as_ref().expect("just loaded");
        FAST.with(|fast| fast.set(Some((generation, l.checked, l.looked_at, l.keys[0]))));
        f(&l.keys)
    })
}

/// The setting's path as an OS path (bytes, not necessarily UTF-8).
fn os_path(path: &CStr) -> &std::path::Path {
    std::path::Path::new(std::ffi::OsStr::from_bytes(path.to_bytes()))
}

fn stamp_of(m: &std::fs::Metadata) -> Stamp {
    Stamp {
        dev: m.dev(),
        ino: m.ino(),
        len: m.len(),
        mtime: (m.mtime(), m.mtime_nsec()),
        ctime: (m.ctime(), m.ctime_nsec()),
    }
}

fn stamp(path: &CStr) -> std::io::Result<Stamp> {
    Ok(stamp_of(&std::fs::metadata(os_path(path))?))
}

fn file_error(message: String, hint: Option<&str>) -> ! {
    error(PgSqlErrorCode::ERRCODE_CONFIG_FILE_ERROR, message, None, hint)
}

/// The keys of the file, checked: a regular file of the server's user alone, small, one key a
/// line (blank lines and `#` comments skipped). Messages name neither the path (a
/// superuser-only setting) nor any of the file's contents.
fn read(path: &CStr) -> (Stamp, Vec<Key>) {
    let unreadable = |e: std::io::Error| -> ! {
        file_error(format!("could not read the public ID key file (uuid_ext.public_id_key_file): {e}"), None)
    };
    let file = std::fs::File::open(os_path(path)).unwrap_or_else(|e| unreadable(e));
    let meta = file.metadata().unwrap_or_else(|e| unreadable(e));
    if !meta.is_file() {
        file_error("the public ID key file (uuid_ext.public_id_key_file) is not a regular file".into(), None);
    }
    if meta.mode() & 0o077 != 0 {
        file_error(
            "the public ID key file (uuid_ext.public_id_key_file) is open to other users of the server's machine"
                .into(),
            Some("Make it readable by the server's user alone: chmod 600 (or 400) it."),
        );
    }
    if meta.len() > MAX_FILE_BYTES {
        file_error(format!("the public ID key file is longer than {MAX_FILE_BYTES} bytes"), None);
    }
    let mut text = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut text).unwrap_or_else(|e| unreadable(e));
    if text.len() as u64 > MAX_FILE_BYTES {
        file_error(format!("the public ID key file is longer than {MAX_FILE_BYTES} bytes"), None);
    }
    let mut keys = Vec::new();
    for (n, line) in text.split(|&c| c == b'\n').enumerate() {
        let line = line.trim_ascii();
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        let Some(key) = Key::from_hex(line) else {
            file_error(format!("line {} of the public ID key file is not a key (32 hex digits)", n + 1), None);
        };
        if keys.len() == MAX_KEYS {
            file_error(format!("the public ID key file has more than {MAX_KEYS} keys"), None);
        }
        keys.push(key);
    }
    if keys.is_empty() {
        file_error("the public ID key file has no key".into(), Some(HINT_SET));
    }
    (stamp_of(&meta), keys)
}

fn key_of(bytes: &[u8]) -> Key {
    Key::from_bytes(bytes).or_raise(Kind::PublicIdKey)
}

fn to_public_slow(id: Uuid) -> Option<Uuid> {
    with_keys(|keys| public_ids::to_public(bytes(&id), &keys[0])).map(uuid)
}

fn from_public_slow(face: Uuid) -> Option<Uuid> {
    with_keys(|keys| public_ids::from_public(bytes(&face), &keys[0])).map(uuid)
}

uuid_map_function!(
    /// The public face of a v7 with the server's key; NULL for a UUID that is not a v7.
    uuid_v7_to_public_sql,
    "uuid_v7_to_public",
    r#"CREATE FUNCTION "uuid_v7_to_public"("id" uuid) RETURNS uuid
STABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_to_public_wrapper';
REVOKE EXECUTE ON FUNCTION "uuid_v7_to_public"(uuid) FROM PUBLIC;"#,
    |b| { cached_key().map(|key| public_ids::to_public(b, &key)) },
    to_public_slow
);

uuid_map_function!(
    /// The v7 of a public face with the server's key; NULL for a UUID that is not a v4.
    uuid_v7_from_public_sql,
    "uuid_v7_from_public",
    r#"CREATE FUNCTION "uuid_v7_from_public"("face" uuid) RETURNS uuid
STABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_from_public_wrapper';
REVOKE EXECUTE ON FUNCTION "uuid_v7_from_public"(uuid) FROM PUBLIC;"#,
    |b| { cached_key().map(|key| public_ids::from_public(b, &key)) },
    from_public_slow
);

/// The v7 a public face stands for under each of the server's keys, the current one first
/// (faces made before a rotation): `WHERE id = ANY (uuid_v7_from_public_all($1))`. NULL for a
/// UUID that is not a v4.
#[pg_extern(stable, strict, parallel_safe)]
pub fn uuid_v7_from_public_all(face: Uuid) -> Option<Vec<Uuid>> {
    let b: &Bytes = bytes(&face);
    with_keys(|keys| keys.iter().map(|k| public_ids::from_public(b, k).map(uuid)).collect())
}

pgrx::extension_sql!(
    r#"REVOKE EXECUTE ON FUNCTION "uuid_v7_from_public_all"(uuid) FROM PUBLIC;"#,
    name = "public_ids_all_grant",
    requires = [uuid_v7_from_public_all]
);

/// The public face of a v7 with `key` (16 bytes: k0 then k1, big-endian); NULL for a UUID that
/// is not a v7.
#[pg_extern(immutable, strict, parallel_safe, name = "uuid_v7_to_public")]
pub fn uuid_v7_to_public_with(id: Uuid, key: &[u8]) -> Option<Uuid> {
    public_ids::to_public(bytes(&id), &key_of(key)).map(uuid)
}

/// The v7 of a public face made with `key`; NULL for a UUID that is not a v4.
#[pg_extern(immutable, strict, parallel_safe, name = "uuid_v7_from_public")]
pub fn uuid_v7_from_public_with(face: Uuid, key: &[u8]) -> Option<Uuid> {
    public_ids::from_public(bytes(&face), &key_of(key)).map(uuid)
}
