package dev.lanes.dqlite.internal.client;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** Node addresses: {@code host:port} or {@code [ipv6]:port}, as dqlite names its nodes. */
public final class Addresses {
    private Addresses() {}

    /**
     * Checks the form of an address (no name lookup).
     *
     * @throws IllegalArgumentException naming the address when it is not {@code host:port}
     */
    public static String check(String address) {
        hostOf(address);
        portOf(address);
        return address;
    }

    /** The socket address, resolving the host name now. */
    static InetSocketAddress resolve(String address) {
        return new InetSocketAddress(hostOf(address), portOf(address));
    }

    /**
     * Whether two addresses name the same node: the same text, or the same port and host names
     * that resolve to the same IP address ({@code localhost:9001} and {@code 127.0.0.1:9001}).
     */
    static boolean same(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        try {
            if (portOf(a) != portOf(b)) {
                return false;
            }
            InetAddress first = InetAddress.getByName(hostOf(a));
            InetAddress second = InetAddress.getByName(hostOf(b));
            return first.equals(second);
        } catch (IllegalArgumentException | UnknownHostException e) {
            return false;
        }
    }

    private static String hostOf(String address) {
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            if (close < 2 || address.length() < close + 2 || address.charAt(close + 1) != ':') {
                throw bad(address);
            }
            return address.substring(1, close);
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || address.indexOf(':') != colon) {
            throw bad(address);
        }
        return address.substring(0, colon);
    }

    private static int portOf(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw bad(address);
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port < 1 || port > 65535) {
                throw bad(address);
            }
            return port;
        } catch (NumberFormatException e) {
            throw bad(address);
        }
    }

    private static IllegalArgumentException bad(String address) {
        return new IllegalArgumentException(
                "node address '" + address + "' is not host:port (or [ipv6]:port)");
    }
}
