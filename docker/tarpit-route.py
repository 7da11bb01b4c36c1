"""Routes each address given into the loopback interface of this network namespace, through rtnetlink (no iproute2
in the image needed): a packet to it loops back, is not local, and is dropped, so connecting hangs until the
caller's timeout, as an address that drops packets on the internet does. Needs CAP_NET_ADMIN in the namespace.

usage: tarpit-route.py ADDRESS...
"""
import os
import socket
import struct
import sys

RTM_NEWROUTE = 24
NLM_F_REQUEST, NLM_F_ACK, NLM_F_EXCL, NLM_F_CREATE = 0x1, 0x4, 0x200, 0x400
RTA_DST, RTA_OIF = 1, 4
RT_TABLE_MAIN, RTPROT_STATIC, RT_SCOPE_LINK, RTN_UNICAST = 254, 4, 253, 1


def attribute(kind, data):
    length = 4 + len(data)
    return struct.pack("HH", length, kind) + data + b"\0" * (-length % 4)


def route_to_loopback(sock, seq, address):
    body = struct.pack("BBBBBBBBI", socket.AF_INET, 32, 0, 0, RT_TABLE_MAIN, RTPROT_STATIC, RT_SCOPE_LINK, RTN_UNICAST, 0)
    body += attribute(RTA_DST, socket.inet_aton(address))
    body += attribute(RTA_OIF, struct.pack("i", socket.if_nametoindex("lo")))
    flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL
    sock.send(struct.pack("IHHII", 16 + len(body), RTM_NEWROUTE, flags, seq, 0) + body)
    error = struct.unpack("i", sock.recv(4096)[16:20])[0]
    if error:
        sys.exit(f"tarpit-route: {address}: {os.strerror(-error)}")


def main():
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0) as sock:
        sock.bind((0, 0))
        for seq, address in enumerate(sys.argv[1:], start=1):
            route_to_loopback(sock, seq, address)
            print(f"tarpit-route: {address}/32 dev lo")


main()
