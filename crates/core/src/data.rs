//! Where benchmark data lives: `--data DIR`, else `POLYEVAL_DATA`, else the
//! config file (`$POLYEVAL_CONFIG` or `~/.config/polyeval/config.toml`, key `data`).
//! Nothing is hard-coded to a particular checkout.
