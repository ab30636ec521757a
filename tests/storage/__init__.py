"""The store's promises, held on a SQLite file and on a real PostgreSQL server."""
