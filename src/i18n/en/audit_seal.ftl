# The audit trail's signed checkpoints: one series per database and host.
audit-seal-series = Checkpoint files checked
audit-seal-database = This database's identity (named by every checkpoint): { $id }
audit-seal-host = Host
audit-seal-file = File
audit-seal-count = Checkpoints
audit-seal-last = Last record vouched for
audit-seal-result = Result
audit-seal-this-host = { $host } (this server)
audit-seal-no-host = Old file (names no database nor host)
audit-seal-result-ok = Matches the trail
audit-seal-result-other_database = Not this database's checkpoints: left as it is
audit-seal-result-truncated = A record it vouched for is gone
audit-seal-result-rewritten = A record it vouched for has changed
audit-seal-result-checkpoint_forged = A line without a valid signature, or of another database
audit-seal-result-checkpoints_reordered = Goes backwards: cut and written again
audit-seal-result-checkpoints_missing = Missing
