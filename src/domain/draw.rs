//! Recorded, replayable draws (PT-2007 11, 25, 27; BSOP 48, 50, 52, 56, 79).
