package dev.mailrun.campaign.model;

/** Who a tracked request is judged to come from (docs/TRACKING.md, "Classification"). */
public enum TrackingClass {
    HUMAN("human"),
    MACHINE_OPEN("machine_open"),
    SCANNER("scanner"),
    UNKNOWN("unknown");

    private final String dbValue;

    TrackingClass(String dbValue) {
        this.dbValue = dbValue;
    }

    public String dbValue() {
        return dbValue;
    }

    public static TrackingClass fromDb(String value) {
        for (TrackingClass c : values()) {
            if (c.dbValue.equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown tracking class " + value);
    }
}
