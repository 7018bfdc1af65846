-- Each worker's settings of each relay it sends through, renewed every 30 s while it runs: a relay
-- named alike on two workers but configured differently (one of them pointing at a dead port) is
-- then named by status, /health/ready and the metrics instead of halving the campaign unseen.
-- fingerprint: SHA-256 (hex) of host, port, TLS mode, user and rate (never the password);
-- settings: the same parts as text, for the operator.
CREATE TABLE relay_worker_config (
    relay       VARCHAR(64)  NOT NULL,
    worker      VARCHAR(255) NOT NULL,
    fingerprint CHAR(64)     NOT NULL,
    settings    VARCHAR(500) NOT NULL,
    seen_at     DATETIME(3)  NOT NULL,
    PRIMARY KEY (relay, worker)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- A down mark holds for the configuration it was made under only: one row per relay and
-- configuration fingerprint (V18), so a worker configured differently neither sees nor clears
-- another's mark. Marks made before V18 ('' here) belong to no configuration and hold for nobody.
UPDATE relay_state SET config = '' WHERE config IS NULL;
ALTER TABLE relay_state MODIFY config CHAR(64) NOT NULL DEFAULT '';
ALTER TABLE relay_state DROP PRIMARY KEY, ADD PRIMARY KEY (relay, config);
