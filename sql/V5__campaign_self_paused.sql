-- Whether a paused campaign was paused by mailrun itself (failure rate, hard-bounce rate, a template or
-- relay that cannot work) rather than by the operator: the self-paused metric and the status page
-- tell the two apart. Set by every status change: true only for a self-pause.
ALTER TABLE campaign ADD COLUMN self_paused BOOLEAN NOT NULL DEFAULT FALSE;
