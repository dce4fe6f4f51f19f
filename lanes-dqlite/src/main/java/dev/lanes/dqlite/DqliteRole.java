package dev.lanes.dqlite;

/**
 * The role of a node in the cluster's Raft configuration.
 */
public enum DqliteRole {
    /** Replicates the log and votes: part of the quorum. */
    VOTER(0),
    /** Replicates the log but does not vote; can be promoted quickly. */
    STANDBY(1),
    /** Neither replicates nor votes; a member in name only, ready to be assigned a role. */
    SPARE(2);

    private final int code;

    DqliteRole(int code) {
        this.code = code;
    }

    /** The role's number on the wire. */
    public int code() {
        return code;
    }

    /**
     * The role with this wire number.
     *
     * @throws IllegalArgumentException for a number dqlite does not define
     */
    public static DqliteRole ofCode(long code) {
        for (DqliteRole role : values()) {
            if (role.code == code) {
                return role;
            }
        }
        throw new IllegalArgumentException("no dqlite role has code " + code);
    }
}
