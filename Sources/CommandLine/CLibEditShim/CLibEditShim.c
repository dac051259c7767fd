#include "CLibEditShim.h"

EditLine *arrange_el_init(const char *program) { return el_init(program, stdin, stdout, stderr); }

int arrange_el_set_prompt(EditLine *editLine, arrange_el_prompt prompt) {
    return el_set(editLine, EL_PROMPT, prompt);
}

int arrange_el_set_editor(EditLine *editLine, const char *mode) { return el_set(editLine, EL_EDITOR, mode); }

int arrange_el_set_signal_handling(EditLine *editLine, int enabled) {
    return el_set(editLine, EL_SIGNAL, enabled);
}

int arrange_el_set_interrupt_as_key(EditLine *editLine) {
    return el_set(editLine, EL_SETTY, "-d", "-isig", (const char *)NULL);
}

int arrange_el_bind_command(EditLine *editLine, const char *name, const char *help,
                            arrange_el_command command, const char *key) {
    if (el_set(editLine, EL_ADDFN, name, help, command) != 0) return -1;
    return el_set(editLine, EL_BIND, key, name, (const char *)NULL);
}

int arrange_el_set_client_data(EditLine *editLine, void *data) {
    return el_set(editLine, EL_CLIENTDATA, data);
}

void *arrange_el_client_data(EditLine *editLine) {
    void *data = NULL;
    return el_get(editLine, EL_CLIENTDATA, &data) == 0 ? data : NULL;
}

int arrange_el_set_history(EditLine *editLine, History *list) {
    return el_set(editLine, EL_HIST, history, list);
}

int arrange_el_terminal_columns(EditLine *editLine) {
    int columns = 0;
    return el_get(editLine, EL_GETTC, "co", &columns) == 0 ? columns : 0;
}

int arrange_history_set_size(History *list, int size) {
    HistEvent event;
    return history(list, &event, H_SETSIZE, size);
}

int arrange_history_set_unique(History *list, int unique) {
    HistEvent event;
    return history(list, &event, H_SETUNIQUE, unique);
}

int arrange_history_enter(History *list, const char *line) {
    HistEvent event;
    return history(list, &event, H_ENTER, line);
}

int arrange_history_count(History *list) {
    HistEvent event;
    return history(list, &event, H_GETSIZE) == 0 ? event.num : -1;
}

int arrange_history_load(History *list, const char *path) {
    HistEvent event;
    return history(list, &event, H_LOAD, path) < 0 ? -1 : 0;
}

int arrange_history_save(History *list, const char *path) {
    HistEvent event;
    return history(list, &event, H_SAVE, path) < 0 ? -1 : 0;
}
