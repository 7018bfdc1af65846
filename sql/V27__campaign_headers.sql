-- Headers the operator adds to every message of a campaign (`campaign create --header`, the API's
-- `headers`): a JSON array of [name, value] pairs in the order given, NULL for none. Checked when the
-- campaign is created (campaign.model.CustomHeaders) and again when a run builds its messages.
-- MEDIUMTEXT: 20 headers of up to 998 characters each, in utf8mb4, can exceed TEXT's 64 KiB.
ALTER TABLE campaign ADD COLUMN custom_headers MEDIUMTEXT NULL;
