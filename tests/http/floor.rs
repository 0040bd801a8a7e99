//! Floor API: waiting lists, seat calls, seating, concurrency (PT-2007 8a, 12, 24; BSOP 44, 46, 47, 51).
