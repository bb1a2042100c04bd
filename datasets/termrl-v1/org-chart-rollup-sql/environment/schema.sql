CREATE TABLE employees (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,
  manager_id   INTEGER,            -- NULL for the top; not a foreign key: data imported from the HR system
  salary_cents INTEGER NOT NULL
);
