package dev.lanes.spring.fleet;

/** What {@link FleetOwnerFilter} answers a request for a tenant another node owns. */
public enum ForwardMode {
    /**
     * {@code 307 Temporary Redirect} to the owner's advertised address with the same path and
     * query (method and body kept by the client); {@code 503} when no owner with an address is
     * known.
     */
    REDIRECT,
    /**
     * {@code 421 Misdirected Request} naming the owner (for a gateway or client that routes by
     * itself); {@code 503} when no owner is known.
     */
    REJECT
}
