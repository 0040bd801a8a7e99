//! Cagnotte sessions, dues, rake, tips, drop box and commission (issue 6).
