/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version of poolshark, set in one place: VERSION in the Makefile. */
#ifndef POOLSHARK_VERSION_H
#define POOLSHARK_VERSION_H

/* "0.2": what `hub`, `name`, `about`, the terminal game and PDN files report. */
extern const char poolshark_version[];

#endif
