-- Erasure (docs/ERASURE.md): a person's data removed on request, a one-way hash of the address kept
-- so that no later import, sign-up or send mails them again by mistake.
--
-- erasure_key     one row: the installation's random 32-byte salt, made by the first erasure
--                 (SecureRandom), never changed. Hashes are SHA-256 of the salt (as 64 hex digits)
--                 followed by the address lower-cased, so they match nothing outside this database.
-- erased_address  one row per erased address: its hash and when. What the suppression check reads
--                 besides the suppression list (SuppressionTable.suppressedAmong).
-- erasure_audit   one row per erasure: when, who (an operator's name, "api:<token>", or "self" for the
--                 person's own confirmed request), by which way, and what it removed. Never the address.
CREATE TABLE erasure_key (
    id       TINYINT   NOT NULL,
    salt_hex CHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT ck_erasure_key_one CHECK (id = 1)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE erased_address (
    address_hash BINARY(32)  NOT NULL,
    erased_at    DATETIME(3) NOT NULL,
    PRIMARY KEY (address_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE erasure_audit (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    at            DATETIME(3)  NOT NULL,
    -- cli, api, console, preferences
    via           VARCHAR(16)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    actor         VARCHAR(200) NOT NULL,
    -- the erased subscriber's id; NULL when the address was no subscriber
    subscriber_id BIGINT       NULL,
    -- recipient rows made anonymous, tracking events deleted
    recipients    INT          NOT NULL,
    tracking      INT          NOT NULL,
    PRIMARY KEY (id),
    KEY ix_erasure_audit_at (at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
