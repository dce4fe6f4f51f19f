INSERT INTO accounts(owner, balance) VALUES ('ada', 100);
INSERT INTO accounts(owner, balance) VALUES ('grace', 250);
INSERT INTO accounts(owner, balance) VALUES ('edsger', 75);
