"""Personal data in transcripts: e-mail addresses, phone numbers, payment cards, IBANs, national identifiers and
IP addresses, found beside the secrets (`scan.scan_personal`, the same anchors-then-windows scan) and masked for
link holders as they are, each as a placeholder of its kind (`[email]`, `[card …6467]`: `kinds.placeholder`).
Its modules are imported by name: `kinds` is a leaf that viewer/secrets/finding.py reads too."""
