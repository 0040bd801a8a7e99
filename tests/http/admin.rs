//! Admin pages (room and profile, games, tables, staff, audit) through the browser forms.
