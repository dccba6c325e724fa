//! Helpers over PostgreSQL's node trees that the planner's files share.

use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag};

/// The pointers of a List of nodes: its cells, read as a slice when called, so the iterator
/// reads nothing but that slice.
///
/// # Safety
/// `list` is NULL (the empty List) or a valid List of pointers, neither changed nor freed for
/// `'a` (appending to it may move its cells).
pub unsafe fn cells<'a>(list: *mut pg_sys::List) -> impl Iterator<Item = *mut Node> + 'a {
    // SAFETY: the caller vouches for the list (a List is never empty, but a slice must not be
    // made of a NULL array even so).
    let cells: &'a [pg_sys::ListCell] = if list.is_null() || unsafe { (*list).length } <= 0 {
        &[]
    } else {
        // SAFETY: the caller vouches for the list; its elements array holds `length` cells.
        unsafe { core::slice::from_raw_parts((*list).elements, (*list).length as usize) }
    };
    // SAFETY: the cells of a List of pointers hold pointers (the union's `ptr_value`).
    cells.iter().map(|cell| unsafe { cell.ptr_value.cast() })
}

/// A new List of `items` (NULL, the empty List, for none), in the current memory context.
///
/// # Safety
/// Each item is a pointer PostgreSQL may keep in a List (a node, usually).
pub unsafe fn list_of<T>(items: impl IntoIterator<Item = *mut T>) -> *mut pg_sys::List {
    // SAFETY: lappend() copies the pointer into a List it allocates (or enlarges).
    items.into_iter().fold(core::ptr::null_mut(), |list, item| unsafe { pg_sys::lappend(list, item.cast()) })
}

/// `items` (a plan's `invalItems`) with the item that invalidates the plan when function `f`'s
/// catalog row changes — a GRANT or a REVOKE among the changes — as PostgreSQL's
/// `record_plan_function_dependency()` makes one for a function the plan calls (which it
/// leaves out for built-in functions).
///
/// # Safety
/// `items` is NULL or a List of PlanInvalItems, in the current memory context.
pub unsafe fn depend_on_function(items: *mut pg_sys::List, f: pg_sys::Oid) -> *mut pg_sys::List {
    let procoid = pg_sys::SysCacheIdentifier::PROCOID as core::ffi::c_int;
    // SAFETY: a new node in the current memory context; the hash of a syscache key.
    unsafe {
        let item = new_node::<pg_sys::PlanInvalItem>(pg_sys::NodeTag::T_PlanInvalItem);
        (*item).cacheId = procoid;
        (*item).hashValue = pg_sys::GetSysCacheHashValue(procoid, f.into(), 0.into(), 0.into(), 0.into());
        pg_sys::lappend(items, item.cast())
    }
}

/// The top-level conjuncts of a qual (nested ANDs, as BETWEEN makes, flattened), appended to
/// `out`: a List in PostgreSQL's memory, whose size follows the query's (running out of it is
/// an ERROR, not an abort of the server).
///
/// # Safety
/// `qual` is NULL or an expression tree.
pub unsafe fn conjuncts(qual: *mut Node, out: &mut *mut pg_sys::List) {
    if qual.is_null() {
        return;
    }
    // SAFETY: past max_stack_depth this is PostgreSQL's ERROR (54001), as in its own walkers.
    unsafe { pg_sys::check_stack_depth() };
    // SAFETY: a node of the tree; its tag decides the cast.
    unsafe {
        if is_a(qual, NodeTag::T_BoolExpr)
            && (*qual.cast::<pg_sys::BoolExpr>()).boolop == pg_sys::BoolExprType::AND_EXPR
        {
            for arg in cells((*qual.cast::<pg_sys::BoolExpr>()).args) {
                conjuncts(arg, out);
            }
        } else {
            *out = pg_sys::lappend(*out, qual.cast());
        }
    }
}

/// The uuid column a one-argument call reads, if it is `f(column)` on a column of this query
/// level.
///
/// # Safety
/// `node` is a node of an expression tree.
pub unsafe fn call_on_uuid_column(node: *mut Node) -> Option<(*mut pg_sys::FuncExpr, *mut pg_sys::Var)> {
    // SAFETY: a node of the tree; its tag decides the casts.
    unsafe {
        if !is_a(node, NodeTag::T_FuncExpr) {
            return None;
        }
        let call: *mut pg_sys::FuncExpr = node.cast();
        let mut args = cells((*call).args);
        let (Some(arg), None) = (args.next(), args.next()) else {
            return None;
        };
        if !is_a(arg, NodeTag::T_Var) {
            return None;
        }
        let var: *mut pg_sys::Var = arg.cast();
        ((*var).varlevelsup == 0 && (*var).vartype == pg_sys::UUIDOID && (*var).varattno > 0).then_some((call, var))
    }
}

/// Whether an expression can be computed once, before a scan reads its first row: no column
/// of this query level, nothing volatile, no subquery, no set.
///
/// # Safety
/// `x` is an expression tree.
pub unsafe fn computable_once(x: *mut Node) -> bool {
    // SAFETY: read-only walks of the tree.
    unsafe {
        !pg_sys::contain_vars_of_level(x, 0)
            && !pg_sys::contain_volatile_functions(x)
            && !pg_sys::checkExprHasSubLink(x)
            && !pg_sys::expression_returns_set(x)
    }
}

/// A Var's range-table index (`Index`, unsigned, on PostgreSQL 14; `int` from 15).
///
/// # Safety
/// `var` points to a Var.
#[allow(clippy::unnecessary_cast)]
pub unsafe fn varno(var: *const pg_sys::Var) -> u32 {
    // SAFETY: as the caller vouches.
    unsafe { (*var).varno as u32 }
}

/// A new node of type `T`, zeroed but for its tag, in the current memory context.
///
/// # Safety
/// `T` is the node struct of `tag`.
pub unsafe fn new_node<T>(tag: NodeTag) -> *mut T {
    // SAFETY: palloc0 of the struct's size; the tag is the first field of every node.
    unsafe {
        let node = pg_sys::palloc0(core::mem::size_of::<T>());
        (*node.cast::<Node>()).type_ = tag;
        node.cast()
    }
}
