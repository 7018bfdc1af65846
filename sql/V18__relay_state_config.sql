-- The configuration a relay was marked down under: a fingerprint (SHA-256, hex) of its host, port,
-- TLS mode and user name, written with every down mark. A worker whose configuration of the relay
-- differs (the relay was re-pointed, or its TLS mode or user changed) drops the old mark and treats
-- the relay as up: the failure was about an address it no longer sends to. NULL (rows marked down
-- before this column existed): unknown, so such a mark is dropped the same way.
ALTER TABLE relay_state ADD COLUMN config CHAR(64) NULL;
