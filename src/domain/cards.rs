//! Playing cards for high-card draws (BSOP 48, 78, 79).
