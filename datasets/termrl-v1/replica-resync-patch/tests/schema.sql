PRAGMA foreign_keys = ON;
CREATE TABLE users (
    id         INTEGER PRIMARY KEY,
    email      TEXT NOT NULL UNIQUE,
    name       TEXT,
    manager_id INTEGER REFERENCES users (id) ON DELETE SET NULL
);
CREATE TABLE teams (
    id      INTEGER PRIMARY KEY,
    slug    TEXT NOT NULL UNIQUE,
    lead_id INTEGER REFERENCES users (id) ON DELETE RESTRICT
);
CREATE TABLE memberships (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role    TEXT NOT NULL,
    PRIMARY KEY (user_id, team_id)
) WITHOUT ROWID;
CREATE INDEX users_manager ON users (manager_id);
CREATE INDEX teams_lead ON teams (lead_id);
CREATE INDEX memberships_team ON memberships (team_id);
