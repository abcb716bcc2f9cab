//! End-to-end tests of the `grognard` binary, compiled as one test binary.

mod cli;
mod hostile;
mod lab;
mod overlays;
mod tools;
mod util;
