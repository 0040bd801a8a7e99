## Reports (issue 6): the floor and admin report pages, charts and CSV headers.
