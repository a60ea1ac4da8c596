//! The linked table (placeholder until the core lands on main): discovery and the QR code.

pub mod discovery;
pub mod qr;
