//! Re-pointing the function references of a stored expression tree.
//!
//! PostgreSQL stores what a default, view, CHECK, trigger condition, policy or SQL-standard
//! function body computes as a node tree (`pg_node_tree`, the text `nodeToString()` writes),
//! in which every function is referenced by OID. [`repoint`] reads such a tree, replaces each
//! reference to an old function by the OID of uuid_ext's function of the same signature, and
//! writes the tree again: names, literals and everything else in it stay exactly as they were,
//! whatever they contain — there is no SQL text to substitute in, and none to inject into.

use core::ffi::{c_char, c_void, CStr};
use pgrx::pg_guard;
use pgrx::pg_sys::{self, Node, NodeTag, Oid};

/// Old function → uuid_ext's function of the same name and signature, sorted by the old.
pub struct FunctionMap(Vec<(Oid, Oid)>);

impl FunctionMap {
    pub fn new(mut pairs: Vec<(Oid, Oid)>) -> FunctionMap {
        pairs.sort_unstable_by_key(|(old, _)| old.to_u32());
        FunctionMap(pairs)
    }

    /// uuid_ext's function in place of `old`, if `old` is one of the old extension's.
    pub fn get(&self, old: Oid) -> Option<Oid> {
        self.0.binary_search_by_key(&old.to_u32(), |(o, _)| o.to_u32()).ok().map(|i| self.0[i].1)
    }

    pub fn pairs(&self) -> &[(Oid, Oid)] {
        &self.0
    }
}

/// A tree that uses an old function where uuid_ext cannot put its own: as an aggregate or a
/// window function (uuid_ext has neither, so no old function of that kind is mapped; this
/// guards against a map that says otherwise).
#[derive(Debug)]
pub struct Unhandled;

/// A re-pointed tree: the tree itself and its text.
pub struct Repointed {
    pub node: *mut Node,
    pub text: *mut c_char,
}

struct Repointing<'a> {
    map: &'a FunctionMap,
    references: usize,
    unhandled: bool,
}

/// The tree `text` with every reference to an old function of `map` replaced by uuid_ext's
/// — function calls and `regproc`/`regprocedure` constants naming one (PostgreSQL records a
/// dependency for both) — or `None` when it references none.
///
/// # Safety
/// Inside a transaction; `text` is `nodeToString()` output (a catalog's `pg_node_tree`).
pub unsafe fn repoint(text: &CStr, map: &FunctionMap) -> Result<Option<Repointed>, Unhandled> {
    // SAFETY: the text is a stored node tree; stringToNode() parses it into fresh nodes in the
    // current memory context, which the walk below may change in place.
    let node: *mut Node = unsafe { pg_sys::stringToNode(text.as_ptr()) }.cast();
    let mut walk = Repointing { map, references: 0, unhandled: false };
    // SAFETY: `walker` is called with the Repointing it is given, on nodes of this tree.
    unsafe { crate::pg::guards::walk_from_c(node, walker, (&raw mut walk).cast()) };
    if walk.unhandled {
        return Err(Unhandled);
    }
    if walk.references == 0 {
        return Ok(None);
    }
    // SAFETY: a valid tree, written back in the format it was read in.
    let text = unsafe { pg_sys::nodeToString(node.cast()) };
    Ok(Some(Repointed { node, text }))
}

/// Visits every node of a tree — expressions, and the queries of views, sublinks, CTEs and
/// function bodies, with their range tables — re-pointing as it goes.
#[pg_guard]
unsafe extern "C-unwind" fn walker(node: *mut Node, context: *mut c_void) -> bool {
    if node.is_null() {
        return false;
    }
    // SAFETY: `context` is the Repointing that repoint() passes down, and `node` a node of its tree.
    let walk = unsafe { &mut *context.cast::<Repointing>() };
    // SAFETY: `node` is a non-null node of the tree; its tag decides what it is.
    let tag = unsafe { (*node).type_ };
    // SAFETY (each cast below): `node` is a node of the tag tested, as PostgreSQL built it.
    match tag {
        // Queries are the one node expression_tree_walker leaves to its caller.
        NodeTag::T_Query => return unsafe { pg_sys::query_tree_walker(node.cast(), Some(walker), context, 0) },
        NodeTag::T_FuncExpr => {
            let call = unsafe { &mut *node.cast::<pg_sys::FuncExpr>() };
            if let Some(new) = walk.map.get(call.funcid) {
                call.funcid = new;
                walk.references += 1;
            }
        }
        NodeTag::T_Const => {
            let constant = unsafe { &mut *node.cast::<pg_sys::Const>() };
            if !constant.constisnull && matches!(constant.consttype, pg_sys::REGPROCOID | pg_sys::REGPROCEDUREOID) {
                let old = Oid::from_u32(constant.constvalue.value() as u32);
                if let Some(new) = walk.map.get(old) {
                    constant.constvalue = new.into();
                    walk.references += 1;
                }
            }
        }
        NodeTag::T_Aggref => {
            walk.unhandled |= walk.map.get(unsafe { (*node.cast::<pg_sys::Aggref>()).aggfnoid }).is_some()
        }
        NodeTag::T_WindowFunc => {
            walk.unhandled |= walk.map.get(unsafe { (*node.cast::<pg_sys::WindowFunc>()).winfnoid }).is_some()
        }
        _ => {}
    }
    // SAFETY: a node of the tree; the walker and its context as above.
    unsafe { pg_sys::expression_tree_walker(node, Some(walker), context) }
}
