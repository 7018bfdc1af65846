-- What the sending runs of a campaign did with each second (the run's clock, UTC), for campaign
-- status to say why a minute ran under the route's rate:
--   sending_ms  ms of the second a run was between its first message and its last: what no run
--               covers is the time between runs (one run's last message to the next one's first);
--   db_wait_ms  ms of it the run's sending waited on the database: a connection for its
--               recipients' in-flight marks (written by the result flush) or the run for its next
--               batch's claim, counted once however many waited at the same time;
--   process_cpu, host_cpu  the worker process's and its host's CPU use (0-1 of all cores), and
--   load_average, cores    the host's load average and its cores, read by the run once a second
--                          as it writes; NULL in seconds without a reading or where the JVM has none.
-- Written by the run about once a second and at its end; each run's end deletes its campaign's
-- seconds older than ten minutes.
CREATE TABLE campaign_run_second (
    campaign_id  BIGINT   NOT NULL,
    second       DATETIME NOT NULL,
    sending_ms   INT      NOT NULL,
    db_wait_ms   INT      NOT NULL,
    process_cpu  DOUBLE   NULL,
    host_cpu     DOUBLE   NULL,
    load_average DOUBLE   NULL,
    cores        INT      NULL,
    PRIMARY KEY (campaign_id, second),
    CONSTRAINT fk_campaign_run_second_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
