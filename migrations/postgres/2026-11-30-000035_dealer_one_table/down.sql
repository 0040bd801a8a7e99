DROP INDEX dealer_shifts_one_table;
