// The libedit calls Swift cannot make itself: el_set, el_get and history are variadic,
// and the stdio globals stdin, stdout and stderr are shared mutable state to Swift 6.
// Each function returns what the libedit call returns: 0 on success, -1 on failure.
#ifndef CLIBEDITSHIM_H
#define CLIBEDITSHIM_H

#include <stdio.h>
#include <histedit.h>

/// A libedit editor command: returns one of the CC_* codes.
typedef unsigned char (*arrange_el_command)(EditLine *editLine, int key);
/// A prompt function: returns the prompt, which must stay valid until the next call.
typedef char *(*arrange_el_prompt)(EditLine *editLine);

/// el_init on the process's stdin, stdout and stderr.
EditLine *arrange_el_init(const char *program);
int arrange_el_set_prompt(EditLine *editLine, arrange_el_prompt prompt);
/// mode is "emacs" or "vi".
int arrange_el_set_editor(EditLine *editLine, const char *mode);
/// Lets libedit restore the terminal on fatal signals and follow window size changes.
int arrange_el_set_signal_handling(EditLine *editLine, int enabled);
/// Turns ISIG off while a line is edited, so that Ctrl-C arrives as a key (^C) that can be
/// bound, instead of a SIGINT that ends the process. Commands run with the terminal's own modes.
int arrange_el_set_interrupt_as_key(EditLine *editLine);
/// Adds command under name (EL_ADDFN) and binds key to it (EL_BIND), e.g. "^I" for Tab.
int arrange_el_bind_command(EditLine *editLine, const char *name, const char *help,
                            arrange_el_command command, const char *key);
int arrange_el_set_client_data(EditLine *editLine, void *data);
/// The pointer set with arrange_el_set_client_data, or NULL.
void *arrange_el_client_data(EditLine *editLine);
int arrange_el_set_history(EditLine *editLine, History *list);
/// The terminal's width in columns, or 0 when unknown.
int arrange_el_terminal_columns(EditLine *editLine);

int arrange_history_set_size(History *list, int size);
/// When unique is non-zero, history ignores a line equal to the one before it.
int arrange_history_set_unique(History *list, int unique);
int arrange_history_enter(History *list, const char *line);
/// The number of lines held, or -1.
int arrange_history_count(History *list);
int arrange_history_load(History *list, const char *path);
int arrange_history_save(History *list, const char *path);

#endif
