//! The Scattershot sheet (being written).
