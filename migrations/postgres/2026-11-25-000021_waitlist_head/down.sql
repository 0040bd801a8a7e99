DROP INDEX waitlist_head;
