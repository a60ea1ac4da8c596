//! The one shape of a command, written once: `commands!` turns one line per command into a
//! `#[tauri::command(async)] pub fn` that converts its arguments, takes the store, calls one
//! service and maps the error into an `AppError`. No rules and no SQL here.
//!
//! A line reads `read|write name(arguments) -> Reply;` (or `-> Reply = path;` when the
//! service is not `services::name`), and may carry doc comments. `read` passes the service
//! `&*state.store()?`, `write` passes `&mut *state.store()?`; either way the store is held
//! by its `StoreGuard`, which nudges the linked table when the command wrote. The service is
//! given the store, then the arguments in the order written, then whatever follows `;` (a
//! page size, `&mut rand::rng()`). An argument is `kind name`, its parameter keeping `name`
//! (the page sends it in camelCase; Tauri maps it back):
//!
//! | kind | parameter | the service is given |
//! | --- | --- | --- |
//! | `id` | `String` | `parse_id("name", &name)?` (`id name as "field"`: that field name) |
//! | `ids` | `Vec<String>` | `&` every id parsed with `parse_id("name", ..)?` |
//! | `opt_id` | `Option<String>` | the id parsed when there is one |
//! | `val name: T` | `T` | `name` |
//! | `ref name: T` | `T` | `&name` |
//! | `deref name: T` | `T` (an `Option`) | `name.as_deref()` |
//! | `or_default name: T` | `Option<T>` | `name.unwrap_or_default()` |
//! | `ref_or_default name: T` | `Option<T>` | `&name.unwrap_or_default()` |
//!
//! `id_first`, `ids_first` and `opt_id_first` parse the same way but before the store is
//! taken (the others are parsed after it, in the call), so a command reports the same
//! error first as it always did when both its id and the database are at fault.

/// Declares commands, one line each (see the module's doc).
macro_rules! commands {
    ($(
        $(#[$doc:meta])*
        $access:ident $name:ident ($($args:tt)*) -> $reply:ty $(= $service:path)?;
    )*) => {
        $( $crate::command::command! { $(#[$doc])* $access $name ($($args)*) -> $reply $(= $service)? } )*
    };
}

/// One command of `commands!`.
macro_rules! command {
    (
        $(#[$doc:meta])*
        $access:ident $name:ident (
            $($kind:ident $arg:ident $(as $field:literal)? $(: $ty:ty)?),* $(; $($extra:expr),+)?
        ) -> $reply:ty = $service:path
    ) => {
        $(#[$doc])*
        #[tauri::command(async)]
        pub fn $name(
            state: ::tauri::State<'_, $crate::state::AppState>,
            $($arg: $crate::command::param!($kind $(: $ty)?)),*
        ) -> ::std::result::Result<$reply, $crate::error::AppError> {
            $($crate::command::first!($kind $arg $(as $field)?);)*
            Ok($service(
                $crate::command::store!($access state),
                $($crate::command::pass!($kind $arg $(as $field)?),)*
                $($($extra),+)?
            )?)
        }
    };
    ($(#[$doc:meta])* $access:ident $name:ident ($($args:tt)*) -> $reply:ty) => {
        $crate::command::command! { $(#[$doc])* $access $name ($($args)*) -> $reply = ::sheetkeeper::services::$name }
    };
}

/// The store as the service takes it: read or written (both through the `StoreGuard`).
macro_rules! store {
    (read $state:ident) => {
        &*$state.store()?
    };
    (write $state:ident) => {
        &mut *$state.store()?
    };
}

/// A parameter's type by its kind.
macro_rules! param {
    (id) => { ::std::string::String };
    (id_first) => { ::std::string::String };
    (ids) => { ::std::vec::Vec<::std::string::String> };
    (ids_first) => { ::std::vec::Vec<::std::string::String> };
    (opt_id) => { ::std::option::Option<::std::string::String> };
    (opt_id_first) => { ::std::option::Option<::std::string::String> };
    (or_default : $ty:ty) => { ::std::option::Option<$ty> };
    (ref_or_default : $ty:ty) => { ::std::option::Option<$ty> };
    ($kind:ident : $ty:ty) => { $ty };
}

/// Parses an argument of a `_first` kind before the store is taken; nothing for the others.
macro_rules! first {
    (id_first $arg:ident $(as $field:literal)?) => {
        let $arg = $crate::command::pass!(id $arg $(as $field)?);
    };
    (ids_first $arg:ident $(as $field:literal)?) => {
        let $arg = $crate::command::pass!(ids_owned $arg $(as $field)?);
    };
    (opt_id_first $arg:ident $(as $field:literal)?) => {
        let $arg = $crate::command::pass!(opt_id $arg $(as $field)?);
    };
    ($kind:ident $arg:ident $(as $field:literal)?) => {};
}

/// What the service is given for an argument.
macro_rules! pass {
    (id $arg:ident) => { $crate::command::pass!(id $arg as stringify!($arg)) };
    (id $arg:ident as $field:expr) => { ::sheetkeeper::model::parse_id($field, &$arg)? };
    (ids $arg:ident $(as $field:literal)?) => { &$crate::command::pass!(ids_owned $arg $(as $field)?) };
    (ids_owned $arg:ident) => { $crate::command::pass!(ids_owned $arg as stringify!($arg)) };
    (ids_owned $arg:ident as $field:expr) => {
        $arg.iter().map(|id| ::sheetkeeper::model::parse_id($field, id)).collect::<::sheetkeeper::Result<Vec<_>>>()?
    };
    (opt_id $arg:ident) => { $crate::command::pass!(opt_id $arg as stringify!($arg)) };
    (opt_id $arg:ident as $field:expr) => { $arg.map(|id| ::sheetkeeper::model::parse_id($field, &id)).transpose()? };
    (id_first $arg:ident $(as $field:literal)?) => { $arg };
    (ids_first $arg:ident $(as $field:literal)?) => { &$arg };
    (opt_id_first $arg:ident $(as $field:literal)?) => { $arg };
    (val $arg:ident) => { $arg };
    (ref $arg:ident) => { &$arg };
    (deref $arg:ident) => { $arg.as_deref() };
    (or_default $arg:ident) => { $arg.unwrap_or_default() };
    (ref_or_default $arg:ident) => { &$arg.unwrap_or_default() };
}

pub(crate) use {command, commands, first, param, pass, store};
