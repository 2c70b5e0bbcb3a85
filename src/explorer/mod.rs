//! The table explorer that `fairy-egt explore` serves: a page in the browser and a JSON API
//! shaped like the Lichess tablebase API's (`answer`), the pictures of a table (`pictures`:
//! histograms and heat maps), behind a small web server (`server`).

pub mod answer;
pub mod pictures;
pub mod server;
